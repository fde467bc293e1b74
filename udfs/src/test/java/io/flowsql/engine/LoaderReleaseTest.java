package io.flowsql.engine;

import org.junit.jupiter.api.Test;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

class LoaderReleaseTest {
    @Test
    void sharedFlinkThreadsHoldingTheJobsLoaderGetItsParentAndOtherThreadsAreLeftAlone() throws Exception {
        ClassLoader parent = getClass().getClassLoader();
        try (URLClassLoader jobLoader = new URLClassLoader(new URL[0], parent)) {
            CountDownLatch end = new CountDownLatch(1);
            Runnable wait = () -> {
                try {
                    end.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            Thread shared = new Thread(wait, "flink-taskexecutor-io-thread-test");
            Thread jobs = new Thread(wait, "flowsql-work-test");
            Thread otherLoader = new Thread(wait, "flink-pekko.actor.default-dispatcher-test");
            shared.setContextClassLoader(jobLoader);
            jobs.setContextClassLoader(jobLoader);
            otherLoader.setContextClassLoader(parent);
            shared.start();
            jobs.start();
            otherLoader.start();
            try {
                assertThat(LoaderRelease.releaseSharedThreads(jobLoader, parent)).isEqualTo(1);
                assertThat(shared.getContextClassLoader()).isSameAs(parent);
                assertThat(jobs.getContextClassLoader()).as("the job's own threads end with it").isSameAs(jobLoader);
                assertThat(otherLoader.getContextClassLoader()).isSameAs(parent);
                assertThat(LoaderRelease.releaseSharedThreads(jobLoader, parent)).isZero();
            } finally {
                end.countDown();
                shared.join();
                jobs.join();
                otherLoader.join();
            }
        }
    }
}

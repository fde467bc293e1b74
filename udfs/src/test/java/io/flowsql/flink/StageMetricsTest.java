package io.flowsql.flink;

import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageTrace;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.testutils.MetricListener;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stage's applications finish on the engine's pool threads, many at once, while the task thread counts skips and
 * timeouts: with Flink's metric group (its test listener registers what the operator would), eight threads finishing
 * 50,000 applications each and one counting skips meanwhile leave every count exact. With Flink's plain
 * {@code SimpleCounter} (an unsynchronized {@code count++}) this loses increments.
 */
class StageMetricsTest {
    private static final int THREADS = 8;
    private static final int PER_THREAD = 50_000;

    @Test
    void countsFromManyPoolThreadsAtOnceAreExact() throws Exception {
        MetricListener listener = new MetricListener();
        StageMetrics metrics = new StageMetrics(listener.getMetricGroup(), "test.stage");
        RequestContext ctx = new RequestContext();
        StageTrace trace = new StageTrace("test.stage");
        trace.llmCalls = 2;
        trace.promptTokens = 3;
        ctx.trace.add(trace);

        ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> runs = new ArrayList<>();
        try {
            for (int t = 0; t < THREADS; t++) {
                runs.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < PER_THREAD; i++) {
                        metrics.finished(ctx, 0, 1);
                    }
                    return null;
                }));
            }
            runs.add(pool.submit(() -> {   // the task thread, meanwhile
                start.await();
                for (int i = 0; i < PER_THREAD; i++) {
                    metrics.skipped();
                }
                return null;
            }));
            start.countDown();
            for (Future<?> run : runs) {
                run.get();
            }
        } finally {
            pool.shutdownNow();
        }

        long applications = (long) THREADS * PER_THREAD;
        assertThat(counter(listener, "applied").getCount()).isEqualTo(applications);
        assertThat(counter(listener, "llmCalls").getCount()).isEqualTo(2 * applications);
        assertThat(counter(listener, "promptTokens").getCount()).isEqualTo(3 * applications);
        assertThat(counter(listener, "skipped").getCount()).isEqualTo(PER_THREAD);
        Histogram latency = listener.getHistogram("flowsql", "stage", "test.stage", "latencyMs").orElseThrow();
        assertThat(latency.getCount()).isEqualTo(applications);
    }

    private static Counter counter(MetricListener listener, String name) {
        return listener.getCounter("flowsql", "stage", "test.stage", name).orElseThrow();
    }
}

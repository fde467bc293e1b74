package io.flowsql.benchmarks.soak;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Heap, metaspace, threads and open descriptors of one process at one moment: this JVM through its MX beans (heap
 * after a full collection and the finalizers it queued, so growth means retained objects), another process (a broker)
 * through /proc.
 */
record ProcessFigures(String name, long heapMb, long metaspaceMb, long rssMb, int threads, int fds) {
    private static final int FINALIZATION_ROUNDS = 3;
    private static final Duration FINALIZER_WAIT = Duration.ofSeconds(2);

    static ProcessFigures ofThisJvm() {
        long heap = heapAfterFullGc();
        long metaspace = ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getName().equals("Metaspace"))
                .mapToLong(p -> p.getUsage().getUsed()).sum();
        return new ProcessFigures("bench-jvm", heap >> 20, metaspace >> 20, rssMb(ProcessHandle.current().pid()),
                ManagementFactory.getThreadMXBean().getThreadCount(), fds(ProcessHandle.current().pid()));
    }

    /**
     * Bytes of heap in use after a full collection, once the objects it found unreachable but finalizable are gone too:
     * a collection keeps such an object, and all it holds, until its finalizer has run. A task attempt that a restore
     * cancelled is one (Flink's {@code SystemProcessingTimeService} has a finalizer and holds its task, operators and
     * keyed state), so a single collection right after a TaskManager kill counted a second copy of the job's state.
     */
    @SuppressWarnings("removal") // runFinalization: deprecated for removal after Java 17, while Flink still finalizes
    static long heapAfterFullGc() {
        // A collection hands what it found finalizable to the JVM's reference thread, which may not have queued it yet
        // when runFinalization looks (on a loaded machine it had not, three rounds running). So each round leaves a
        // signal that is finalizable too and waits for its finalizer. The reference thread takes each collection's
        // list whole and in turn: once the second round's signal ran, everything the first round found is queued, and
        // runFinalization finishes it.
        for (int round = 0; round < FINALIZATION_ROUNDS; round++) {
            CountDownLatch finalized = new CountDownLatch(1);
            FinalizationSignal.leave(finalized);
            System.gc();
            awaitQuietly(finalized);
            System.runFinalization();
        }
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static void awaitQuietly(CountDownLatch finalized) {
        try {
            finalized.await(FINALIZER_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** An object nothing refers to, whose finalizer says that the finalizer thread reached it. */
    private static final class FinalizationSignal {
        private final CountDownLatch finalized;

        private FinalizationSignal(CountDownLatch finalized) {
            this.finalized = finalized;
        }

        static void leave(CountDownLatch finalized) {
            new FinalizationSignal(finalized);
        }

        @Override
        @SuppressWarnings({"deprecation", "removal"})
        protected void finalize() {
            finalized.countDown();
        }
    }

    /** A process seen from outside: resident memory, threads and descriptors (heap and metaspace are not visible: -1). */
    static ProcessFigures ofProcess(String name, long pid) {
        return new ProcessFigures(name, -1, -1, rssMb(pid), statusField(pid, "Threads:").intValue(), fds(pid));
    }

    private static long rssMb(long pid) {
        return statusField(pid, "VmRSS:") >> 10;
    }

    private static Long statusField(long pid, String field) {
        try (Stream<String> lines = Files.lines(Path.of("/proc", Long.toString(pid), "status"))) {
            return lines.filter(l -> l.startsWith(field)).findFirst()
                    .map(l -> Long.parseLong(l.substring(field.length()).trim().split("\\s+")[0])).orElse(-1L);
        } catch (IOException | RuntimeException e) {
            return -1L;
        }
    }

    private static int fds(long pid) {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return (int) fds.count();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    String line() {
        return String.format("%s heap=%s metaspace=%s rss=%dMB threads=%d fds=%d", name,
                heapMb < 0 ? "n/a" : heapMb + "MB", metaspaceMb < 0 ? "n/a" : metaspaceMb + "MB", rssMb, threads, fds);
    }

}

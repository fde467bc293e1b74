package io.flowsql.benchmarks.throughput;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The JVM's own time as its management beans report it: the JIT's compilation time (CompilationMXBean) and the
 * collectors' collection time (GarbageCollectorMXBeans). Job-thread CPU leaves both out, yet a question pays for them.
 */
record JvmTimes(long compilationMillis, long collectionMillis) {

    static JvmTimes now() {
        var compiler = ManagementFactory.getCompilationMXBean();
        long compilation = compiler != null && compiler.isCompilationTimeMonitoringSupported()
                ? compiler.getTotalCompilationTime() : 0;
        long collection = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            collection += Math.max(0, gc.getCollectionTime());
        }
        return new JvmTimes(compilation, collection);
    }

    JvmTimes since(JvmTimes start) {
        return new JvmTimes(compilationMillis - start.compilationMillis, collectionMillis - start.collectionMillis);
    }

    /** The machine's 1-minute load average (/proc/loadavg), or -1 where there is none: CPU here is shared. */
    static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (Exception none) {
            return -1;
        }
    }
}

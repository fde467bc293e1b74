package io.flowsql.testsupport;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Records, per top-level test class, its wall time, this JVM's CPU and its reaped children's CPU between the class's
 * start and end, in {@code target/test-cpu/<class>.txt} of the module ({@code wall_s=… cpu_s=… children_cpu_s=…}).
 * Surefire and failsafe run one class at a time per test JVM, so the JVM's CPU over that span is the class's own.
 * Registered through META-INF/services, so every module that has this artifact on its test classpath records.
 */
public final class ClassCpuListener implements TestExecutionListener {
    private final Map<String, long[]> started = new ConcurrentHashMap<>();
    private final Path folder;

    public ClassCpuListener() {
        this(Path.of(System.getProperty("basedir", System.getProperty("user.dir")), "target", "test-cpu"));
    }

    ClassCpuListener(Path folder) {
        this.folder = folder;
    }

    @Override
    public void executionStarted(TestIdentifier id) {
        topLevelClass(id).ifPresent(name ->
                started.put(name, new long[] {System.nanoTime(), ProcessCpu.ownNanos(), ProcessCpu.childrenNanos()}));
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        topLevelClass(id).ifPresent(name -> {
            long[] start = started.remove(name);
            if (start != null) {
                write(name, line(System.nanoTime() - start[0], delta(ProcessCpu.ownNanos(), start[1]),
                        delta(ProcessCpu.childrenNanos(), start[2])));
            }
        });
    }

    /** The figures of one class as test-times.sh reads them; a CPU figure the platform did not give is -1. */
    static String line(long wallNanos, long cpuNanos, long childrenNanos) {
        return String.format(Locale.ROOT, "wall_s=%.2f cpu_s=%.2f children_cpu_s=%.2f%n",
                seconds(wallNanos), seconds(cpuNanos), seconds(childrenNanos));
    }

    private static double seconds(long nanos) {
        return nanos < 0 ? -1 : nanos / 1e9;
    }

    private static long delta(long end, long start) {
        return end < 0 || start < 0 ? -1 : end - start;
    }

    private static java.util.Optional<String> topLevelClass(TestIdentifier id) {
        return id.getSource().filter(ClassSource.class::isInstance).map(s -> ((ClassSource) s).getClassName())
                .filter(name -> !name.contains("$"));
    }

    private void write(String className, String line) {
        try {
            Files.createDirectories(folder);
            Files.writeString(folder.resolve(className + ".txt"), line);
        } catch (IOException e) {
            System.err.println("test-cpu: cannot write " + className + ": " + e);
        }
    }
}

package io.flowsql.testsupport;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time of this JVM and of the child processes it has waited for (a child's time reaches its parent's
 * {@code cutime}/{@code cstime} in /proc/self/stat when the parent reaps it: brokers in separate JVMs, mariadbd,
 * llama-server, the deploy/ scripts; not a daemon that a script started and left running).
 */
final class ProcessCpu {
    /** Linux's USER_HZ: the unit of /proc/self/stat's times on every architecture the JDK runs on. */
    static final long TICKS_PER_SECOND = 100;

    private ProcessCpu() {}

    /** This JVM's own CPU time, ns (-1 when the platform does not say). */
    static long ownNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    /** CPU time of reaped children, ns (-1 without /proc). */
    static long childrenNanos() {
        try {
            return childrenTicks(Files.readString(Path.of("/proc/self/stat"))) * (1_000_000_000L / TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * cutime + cstime (fields 16 and 17) of a /proc/[pid]/stat line. The command name (field 2) is in parentheses
     * and may hold spaces and parentheses itself, so the fields are counted after its last ')'.
     */
    static long childrenTicks(String stat) {
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        // after[0] is field 3 (state)
        return Long.parseLong(after[16 - 3]) + Long.parseLong(after[17 - 3]);
    }
}

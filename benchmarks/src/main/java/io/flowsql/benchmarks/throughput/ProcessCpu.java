package io.flowsql.benchmarks.throughput;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The CPU one process of the machine uses over a window, from Linux's /proc (user + system clock ticks of the process
 * and of each of its threads, by the thread's native name: the JVM gives each Java thread its name, cut to 15
 * characters). Threads that share a name are summed; threads that ended during the window are not counted.
 */
final class ProcessCpu {
    private static final double TICK_MILLIS = 10.0;   // USER_HZ is 100 on Linux
    private static final int SHOWN_THREADS = 8;

    private final String name;
    private final long pid;
    private long processTicks;
    private Map<String, Long> threadTicks = Map.of();

    ProcessCpu(String name, long pid) {
        this.name = name;
        this.pid = pid;
    }

    void begin() {
        processTicks = ticks(Path.of("/proc", Long.toString(pid), "stat"));
        threadTicks = threads();
    }

    /** "name: X ms/s; busiest threads: a Y, b Z, ..." for the window since {@link #begin}, {@code seconds} long. */
    String line(int seconds) {
        long used = ticks(Path.of("/proc", Long.toString(pid), "stat")) - processTicks;
        Map<String, Long> now = threads();
        Map<String, Long> delta = new HashMap<>();
        now.forEach((thread, ticks) -> delta.put(thread, ticks - threadTicks.getOrDefault(thread, 0L)));
        List<String> busiest = delta.entrySet().stream().filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(SHOWN_THREADS)
                .map(e -> String.format("%s %.1f", e.getKey(), e.getValue() * TICK_MILLIS / seconds)).toList();
        return String.format("%-14s %6.1f ms of CPU per second; busiest threads (ms/s): %s", name,
                used * TICK_MILLIS / seconds, String.join(", ", busiest));
    }

    private Map<String, Long> threads() {
        Map<String, Long> byName = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String comm = Files.readString(task.resolve("comm")).strip();
                    byName.merge(comm, ticks(task.resolve("stat")), Long::sum);
                } catch (IOException | IllegalStateException ended) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("reading the threads of process " + pid + " (" + name + ")", e);
        }
        return byName;
    }

    /** utime + stime of a /proc stat file; the fields after the command name, which may hold spaces and ')'. */
    private static long ticks(Path stat) {
        try {
            String text = Files.readString(stat);
            String[] fields = text.substring(text.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException e) {
            throw new IllegalStateException("reading " + stat, e);
        }
    }
}

package io.flowsql.benchmarks.throughput;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The whole machine's CPU time from {@code /proc/stat}'s first line, every process counted: the benchmark runs the
 * job, the simulated LLM server, the broker and its own client on one machine, and a ratio measured while the cores
 * were busy says as much about the machine as about the job. Zeros where there is no /proc.
 *
 * @param busyTicks user, nice, system, irq, softirq and steal time
 * @param allTicks  the same plus idle and iowait
 */
record MachineCpu(long busyTicks, long allTicks, int cores) {

    static MachineCpu now() {
        try {
            return parse(Files.readString(Path.of("/proc/stat")));
        } catch (IOException | RuntimeException none) {
            return new MachineCpu(0, 0, Runtime.getRuntime().availableProcessors());
        }
    }

    /** Reads the aggregate {@code cpu} line and counts the {@code cpuN} lines. */
    static MachineCpu parse(String procStat) {
        long busy = 0;
        long all = 0;
        int cores = 0;
        for (String line : procStat.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f[0].equals("cpu")) {
                long user = Long.parseLong(f[1]);
                long nice = Long.parseLong(f[2]);
                long system = Long.parseLong(f[3]);
                long idle = Long.parseLong(f[4]);
                long iowait = Long.parseLong(f[5]);
                long irq = Long.parseLong(f[6]);
                long softirq = Long.parseLong(f[7]);
                long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
                busy = user + nice + system + irq + softirq + steal;
                all = busy + idle + iowait;
            } else if (f[0].startsWith("cpu")) {
                cores++;
            }
        }
        return new MachineCpu(busy, all, Math.max(1, cores));
    }

    /** The share of all cores' time that was busy since {@code start} (0 to 1; NaN without figures). */
    double busyShareSince(MachineCpu start) {
        long all = allTicks - start.allTicks;
        return all <= 0 ? Double.NaN : (double) (busyTicks - start.busyTicks) / all;
    }
}

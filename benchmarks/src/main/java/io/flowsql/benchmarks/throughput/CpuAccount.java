package io.flowsql.benchmarks.throughput;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where the process's CPU went between two snapshots, by part: the job (Flink tasks and runtime, LLM client, SQL,
 * the job's Kafka clients), the simulated LLM server, the Kafka broker, the benchmark's own client, the JIT compilers
 * and the garbage collector (JVM-internal threads, read from /proc), and what no live thread accounts for (threads
 * that ended in between). Java threads are read with thread CPU counters, so the split does not depend on how busy
 * the machine is.
 */
final class CpuAccount {
    static final String JOB = "job";
    static final String SIMULATOR = "simulator";
    static final String BROKER = "broker";
    static final String CLIENT = "bench client";
    static final String JIT = "JIT";
    static final String GC = "GC";
    /** RocksDB's own native threads (flush, compaction): the job's, but invisible to Java's thread counters. */
    static final String ROCKSDB = "rocksdb";
    static final String UNATTRIBUTED = "unattributed";
    /** The parts of the job's own CPU ({@link #jobBetween}), by what its threads do. */
    static final String LLM_CLIENT = "llm client";
    static final String STAGE_WORK = "stage work";
    static final String FLINK_TASKS = "flink tasks";
    static final String KAFKA_CLIENTS = "kafka clients";
    static final String CHECKPOINTS = "checkpoints";
    static final String FLINK_RUNTIME = "flink runtime";
    static final String TOTAL = "total";
    /** The benchmark's own Kafka clients carry this in their client id. */
    static final String CLIENT_ID = "bench-client";

    private static final Pattern BROKER_NAMES = Pattern.compile(
            "(?i).*(data-plane|request-handler|broker|raft|quorum|controller|reaper|txnmarker|replica|log-cleaner|"
                    + "group-coordinator|transaction|kafka-scheduler|metadata|share-coordinator|feature)"
                    // the broker's purgatory timers ("executor-Fetch", "executor-Produce"), started on first use
                    + ".*|executor-[A-Z].*");
    private static final long TICK_NANOS = 10_000_000L;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final Set<Long> brokerThreads = new HashSet<>();

    CpuAccount() {
        threads.setThreadCpuTimeEnabled(true);
    }

    /** Every Java thread alive now belongs to the broker (call right after starting it, before anything else). */
    void markBrokerThreads() {
        for (long id : threads.getAllThreadIds()) {
            brokerThreads.add(id);
        }
    }

    /** CPU nanoseconds per Java thread id, JIT and GC thread time, and the process total, now. */
    Snapshot snapshot() {
        Map<Long, Long> perThread = new HashMap<>();
        Map<Long, String> names = new HashMap<>();
        long[] ids = threads.getAllThreadIds();
        ThreadInfo[] infos = threads.getThreadInfo(ids);
        for (int i = 0; i < ids.length; i++) {
            long cpu = threads.getThreadCpuTime(ids[i]);
            if (cpu >= 0 && infos[i] != null) {
                perThread.put(ids[i], cpu);
                names.put(ids[i], infos[i].getThreadName());
            }
        }
        JvmThreads jvm = jvmThreads();
        long process = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        return new Snapshot(perThread, names, jvm.jit(), jvm.gc(), jvm.rocksdb(), process);
    }

    /** CPU nanoseconds by part between two snapshots, in a stable order, with the total last. */
    Map<String, Long> between(Snapshot start, Snapshot end) {
        Map<String, Long> parts = new LinkedHashMap<>();
        for (String part : new String[] {JOB, SIMULATOR, BROKER, CLIENT, JIT, GC, UNATTRIBUTED, TOTAL}) {
            parts.put(part, 0L);
        }
        long attributed = 0;
        for (Map.Entry<Long, Long> e : end.perThread.entrySet()) {
            long delta = e.getValue() - start.perThread.getOrDefault(e.getKey(), 0L);
            parts.merge(partOf(e.getKey(), end.names.get(e.getKey())), delta, Long::sum);
            attributed += delta;
        }
        long jit = end.jitSince(start);
        long gc = grownSince(start.gcByThread, end.gcByThread);
        long rocksdb = grownSince(start.rocksdbByThread, end.rocksdbByThread);
        long total = end.processNanos - start.processNanos;
        parts.merge(JOB, rocksdb, Long::sum);
        parts.put(JIT, jit);
        parts.put(GC, gc);
        parts.put(UNATTRIBUTED, Math.max(0, total - attributed - rocksdb - jit - gc));
        parts.put(TOTAL, total);
        return parts;
    }

    /**
     * The job's part of the CPU between two snapshots, split by what its threads do: the LLM client (HTTP I/O threads
     * and the callback pool), the stages' work (the work pool, the candidate executors, the SQL parser), Flink's task
     * threads (the operators themselves: records, state, serialization), the job's Kafka clients, checkpointing
     * (Flink's asynchronous snapshot threads) and the rest of Flink's runtime (JobManager, RPC, timers).
     */
    Map<String, Long> jobBetween(Snapshot start, Snapshot end) {
        Map<String, Long> parts = new LinkedHashMap<>();
        for (String part : List.of(LLM_CLIENT, STAGE_WORK, FLINK_TASKS, KAFKA_CLIENTS, CHECKPOINTS, FLINK_RUNTIME)) {
            parts.put(part, 0L);
        }
        parts.put(ROCKSDB, grownSince(start.rocksdbByThread, end.rocksdbByThread));
        for (Map.Entry<Long, Long> e : end.perThread.entrySet()) {
            String name = end.names.get(e.getKey());
            if (JOB.equals(partOf(e.getKey(), name))) {
                long delta = e.getValue() - start.perThread.getOrDefault(e.getKey(), 0L);
                parts.merge(jobPartOf(name), delta, Long::sum);
            }
        }
        return parts;
    }

    /**
     * The job's busiest threads between two snapshots, busiest first, as "name: nanoseconds" (what an idle job still
     * runs, by thread, so a reader can tell the TaskManager's threads from the JobManager's).
     */
    List<Map.Entry<String, Long>> busiestJobThreads(Snapshot start, Snapshot end, int count) {
        Map<String, Long> byName = new HashMap<>();
        for (Map.Entry<Long, Long> e : end.perThread.entrySet()) {
            String name = end.names.get(e.getKey());
            if (JOB.equals(partOf(e.getKey(), name))) {
                byName.merge(name, e.getValue() - start.perThread.getOrDefault(e.getKey(), 0L), Long::sum);
            }
        }
        return byName.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(count)
                .toList();
    }

    static String jobPartOf(String name) {
        if (name.startsWith("flowsql-llm") || name.startsWith("AsyncHttpClient")) {
            return LLM_CLIENT;
        }
        if (name.startsWith("flowsql-")) {
            return STAGE_WORK;
        }
        if (name.startsWith("kafka-") || name.contains("Fetcher")) {
            return KAFKA_CLIENTS;
        }
        if (name.startsWith("AsyncOperations") || name.contains("Checkpoint") || name.startsWith("pool-")) {
            // pool-N-thread-M: mostly the RocksDB backend's checkpoint file transfer threads
            return CHECKPOINTS;
        }
        if (name.contains("(") && name.contains("/") && name.contains("#")) { // "<chain> (1/2)#0": a task thread
            return FLINK_TASKS;
        }
        return FLINK_RUNTIME;
    }

    private String partOf(long id, String name) {
        String part = partOf(name);
        return JOB.equals(part) && brokerThreads.contains(id) ? BROKER : part;
    }

    /** The part a thread belongs to by its name alone (the broker's threads from before the job are known by id too). */
    private static String partOf(String name) {
        if (name.startsWith("simulated-llm") || name.startsWith("HTTP-Dispatcher")) {
            return SIMULATOR;
        }
        if (name.contains(CLIENT_ID) || name.equals("main")) {
            return CLIENT;
        }
        if (name.startsWith("kafka-producer-network-thread") || name.startsWith("kafka-coordinator-heartbeat-thread")) {
            return JOB;
        }
        if (BROKER_NAMES.matcher(name).matches()) {
            return BROKER;
        }
        return JOB;
    }

    /** Whether a thread of this name is one of the job's (for a profile, which knows threads by name). */
    static boolean isJobThreadName(String name) {
        return JOB.equals(partOf(name));
    }

    /**
     * What the threads alive at {@code end} spent since {@code start}, thread by thread ({@code /proc} task ids): a
     * thread that ended in between takes its time with it (the JVM stops idle compiler threads, so the sum over live
     * threads fell, and the JIT's share once printed as negative), and a thread new since {@code start}, or an id
     * reused by one, counts from zero.
     */
    static long grownSince(Map<Long, Long> start, Map<Long, Long> end) {
        long grown = 0;
        for (Map.Entry<Long, Long> e : end.entrySet()) {
            long before = start.getOrDefault(e.getKey(), 0L);
            grown += e.getValue() >= before ? e.getValue() - before : e.getValue();
        }
        return grown;
    }

    /** CPU nanoseconds by {@code /proc} task id of the threads Java's counters do not see. */
    private record JvmThreads(Map<Long, Long> jit, Map<Long, Long> gc, Map<Long, Long> rocksdb) {}

    /**
     * The threads Java's counters do not see, by kind — the JVM's own (compiler; GC and VM thread) and RocksDB's
     * native ones ({@code rocksdb:*}) — from /proc; empty elsewhere.
     */
    private static JvmThreads jvmThreads() {
        JvmThreads found = new JvmThreads(new HashMap<>(), new HashMap<>(), new HashMap<>());
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String comm;
                String stat;
                try {
                    comm = Files.readString(task.resolve("comm")).strip();
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException gone) {
                    continue;
                }
                Map<Long, Long> kind = comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler") ? found.jit()
                        : comm.startsWith("GC Thread") || comm.startsWith("G1 ") || comm.equals("VM Thread") ? found.gc()
                        : comm.startsWith("rocksdb:") ? found.rocksdb() : null;
                if (kind != null) {
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long nanos = (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * TICK_NANOS;
                    kind.put(Long.parseLong(task.getFileName().toString()), nanos);
                }
            }
        } catch (IOException noProc) {
            return new JvmThreads(Map.of(), Map.of(), Map.of());
        }
        return found;
    }

    record Snapshot(Map<Long, Long> perThread, Map<Long, String> names, Map<Long, Long> jitByThread,
                    Map<Long, Long> gcByThread, Map<Long, Long> rocksdbByThread, long processNanos) {

        /** The JIT compilers' CPU nanoseconds since {@code start} ({@link #grownSince}). */
        long jitSince(Snapshot start) {
            return grownSince(start.jitByThread, jitByThread);
        }
    }
}

package io.flowsql.job;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.ScriptedFlinkCluster;
import io.flowsql.simulator.LatencyModel;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The job on a standalone session cluster (deploy/flink-cluster-start.sh: a JobManager and one TaskManager, separate
 * JVMs) leaves the cluster as it found it:
 * <ul>
 * <li>a submission with a bad option ({@code -D no.such.option=1}) fails with the cluster's answer naming the key, while
 * the JobManager, the TaskManager and the job already running there all keep running (the job's {@code main} used to
 * call {@code System.exit} inside the JobManager);</li>
 * <li>cancelling the job and submitting it again, cycle after cycle, leaves no class loader of an ended job behind on
 * the TaskManager: after a full GC ({@code jcmd GC.run}) the live user-code class loaders ({@code jcmd
 * VM.classloaders}) are as many as before the cycles; the metaspace before and after is printed. When there are more,
 * the TaskManager's heap is dumped and the shortest path from a GC root to each user-code loader printed
 * ({@link HeapRootPaths}; {@code -Dflowsql.classloader.heapdump=true} prints them on every run).</li>
 * <li>the job jar goes to the cluster once: every later submission runs the jar the cluster holds (one jar more in
 * {@code GET /jars} after them all than before).</li>
 * </ul>
 * Three cycles by default (each a submit and a cancel, tens of seconds on a loaded machine);
 * {@code -Dflowsql.classloader.cycles=10} runs ten.
 */
class SessionClusterHygieneIT {
    private static final int CYCLES = Integer.getInteger("flowsql.classloader.cycles", 3);
    private static final Pattern USER_LOADER = Pattern.compile("ChildFirstClassLoader|ParentFirstClassLoader");
    private static final Pattern METASPACE = Pattern.compile("Metaspace\\s+used (\\d+)K");

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(1));

    @Test
    void aRefusedStartFailsOnlyItsSubmissionAndEndedJobsLeaveNoClassLoaderBehind() throws Exception {
        ClusterItRun run = ClusterItRun.fromSystemProperties("session-cluster-hygiene");
        Path jobJar = run.jobJar();
        assertThat(jobJar).as("the shaded job jar (packaged before the integration tests)").isRegularFile();

        try (SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder().port(0)
                     .latency(LatencyModel.fixed(20)).responders(AgentResponders.all()).build());
             ScriptedFlinkCluster cluster = ClusterItRun.cluster(run.projectDir(), run.work().resolve("cluster"), 2, "1536m")) {
            cluster.start(1);
            // the cluster's upload folder lives in the test's work folder: earlier runs' jars may be listed already
            int jarsBefore = cluster.get("/jars").path("files").size();
            List<String> args = new JobTopics(KAFKA.bootstrapServers()).jobConfig(run.sharedData(), llm.baseUrl(), Map.of(
                    JobOptions.PARALLELISM.key(), "1", JobOptions.STRATEGY.key(), "mag-sql")).asArguments();
            String running = cluster.submit(jobJar, Optional.empty(), args);
            long jobManager = cluster.jobManagerPid();
            long taskManager = cluster.taskManagerPid(1);

            // 1. A bad option fails the submission, not the cluster.
            List<String> bad = new ArrayList<>(args);
            bad.addAll(List.of("-D", "no.such.option=1"));
            assertThatThrownBy(() -> cluster.submit(jobJar, Optional.empty(), bad))
                    .as("the cluster's answer to the refused submission").hasMessageContaining("no.such.option");
            assertThat(ProcessHandle.of(jobManager).map(ProcessHandle::isAlive)).as("the JobManager").contains(true);
            assertThat(ProcessHandle.of(taskManager).map(ProcessHandle::isAlive)).as("the TaskManager").contains(true);
            assertThat(cluster.overview()[0]).as("TaskManagers registered").isEqualTo(1);
            assertThat(cluster.get("/jobs/" + running).path("state").asText()).as("the other job").isEqualTo("RUNNING");
            log("a submission with -D no.such.option=1 was refused; JobManager %d, TaskManager %d and job %s still run",
                    jobManager, taskManager, running);

            // 2. Cancel and submit again: the ended jobs' class loaders go.
            Footprint before = footprint(taskManager, 1);
            Map<String, Integer> threadsBefore = threadNames(taskManager);
            log("before %d cycles (one job running): %s", CYCLES, before);
            for (int cycle = 1; cycle <= CYCLES; cycle++) {
                cluster.cancel(running);
                running = cluster.submit(jobJar, Optional.empty(), args);
                log("cycle %d: job %s running", cycle, running);
            }
            // the job jar (over 100 MB) went to the cluster once for all its submissions, the refused one among them
            assertThat(cluster.get("/jars").path("files").size() - jarsBefore)
                    .as("jars uploaded to the cluster by %d submissions", CYCLES + 2).isEqualTo(1);
            Footprint after = footprint(taskManager, before.userLoaders());
            log("after %d cycles (one job running): %s", CYCLES, after);
            // what may hold an ended job's loader: threads of the TaskManager that are more after the cycles than before
            Map<String, Integer> threadsAfter = threadNames(taskManager);
            threadsAfter.forEach((name, n) -> {
                if (n > threadsBefore.getOrDefault(name, 0)) {
                    log("more threads after the cycles: %s %d (before: %d)", name, n, threadsBefore.getOrDefault(name, 0));
                }
            });
            if (after.userLoaders() > before.userLoaders() || Boolean.getBoolean("flowsql.classloader.heapdump")) {
                printRetainingPaths(taskManager, run.work().resolve("taskmanager.hprof"));
            }
            // a loader too many: the heap dump above shows what holds it (issue 30 item 9 was DuckDB's JFR hook, registered
            // when the first job's loader ran DriverManager's one-time driver scan)
            assertThat(after.userLoaders()).as("live user-code class loaders on the TaskManager after %d cycles", CYCLES)
                    .isLessThanOrEqualTo(before.userLoaders());
        }
    }

    /** What the TaskManager holds after a full GC: user-code class loaders and metaspace used. */
    record Footprint(int userLoaders, long metaspaceKb) {
        @Override
        public String toString() {
            return userLoaders + " user-code class loaders, metaspace used " + metaspaceKb / 1024 + " MB";
        }
    }

    /**
     * The footprint after a full GC, taken again (up to a minute) while more than {@code expectedLoaders} loaders are
     * alive: an ended job's last threads (an HTTP client's graceful shutdown, an idle parse thread) take seconds to go.
     */
    private static Footprint footprint(long pid, int expectedLoaders) throws Exception {
        long start = System.nanoTime();
        long deadline = start + TimeUnit.SECONDS.toNanos(60);
        Footprint seen;
        int attempts = 0;
        do {
            // one jcmd (one JVM started) for the three commands: each jcmd is a JVM start on the shared CPUs
            String out = jcmd(pid, "GC.run", "VM.classloaders", "GC.heap_info");
            seen = new Footprint(count(USER_LOADER, out), metaspaceKb(out));
            attempts++;
            if (seen.userLoaders() <= expectedLoaders) {
                break;
            }
            Thread.sleep(2_000);
        } while (System.nanoTime() < deadline);
        log("footprint taken %d time(s) in %d ms", attempts, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        return seen;
    }

    /**
     * Dumps the TaskManager's heap (live objects) and prints, for each user-code class loader in it, its jars (a job's
     * blob files name the job) and the shortest path from a GC root that keeps it alive.
     */
    private static void printRetainingPaths(long pid, Path dump) throws Exception {
        java.nio.file.Files.deleteIfExists(dump);
        jcmd(pid, "GC.heap_dump " + dump);
        long start = System.nanoTime();
        List<String> reports = HeapRootPaths.report(dump,
                loader -> USER_LOADER.matcher(loader.getInstanceClassName()).find(), HeapRootPaths::urls);
        log("heap dump %s (%d MB) analysed in %d s; user-code class loaders in it: %d", dump,
                java.nio.file.Files.size(dump) >> 20, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start), reports.size());
        reports.forEach(report -> log("%s", report));
        java.nio.file.Files.delete(dump); // kept when the analysis failed, for a look by hand
    }

    /** The TaskManager's threads by name (digits folded), without the JVM's own. */
    private static Map<String, Integer> threadNames(long pid) throws Exception {
        Matcher m = Pattern.compile("^\"([^\"]+)\"", Pattern.MULTILINE).matcher(jcmd(pid, "Thread.print"));
        Map<String, Integer> counts = new TreeMap<>();
        while (m.find()) {
            String name = m.group(1).replaceAll("[0-9]+", "#");
            if (!name.startsWith("GC ") && !name.startsWith("C1 ") && !name.startsWith("C2 ")) {
                counts.merge(name, 1, Integer::sum);
            }
        }
        return counts;
    }

    private static int count(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private static long metaspaceKb(String heapInfo) {
        Matcher m = METASPACE.matcher(heapInfo);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    /** Runs the diagnostic {@code commands} in the JVM {@code pid} with one jcmd ({@code -f}: commands read from a file). */
    private static String jcmd(long pid, String... commands) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Path file = java.nio.file.Files.createTempFile("jcmd-", ".txt");
        try {
            java.nio.file.Files.write(file, List.of(commands));
            // the jcmd JVM lives a second: C1 and the serial collector cost it less
            Process process = new ProcessBuilder(jcmd.toString(), "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC",
                    Long.toString(pid), "-f", file.toString()).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("jcmd " + pid + " " + List.of(commands) + " failed: " + out);
            }
            return out;
        } finally {
            java.nio.file.Files.delete(file);
        }
    }

    private static void log(String format, Object... args) {
        System.out.printf("[session-cluster] " + format + "%n", args);
    }
}

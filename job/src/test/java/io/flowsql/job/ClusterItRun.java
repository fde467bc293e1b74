package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.devstack.ScriptedFlinkCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What an integration test on the standalone cluster is given by failsafe, or surefire in .ci/run (the pom's system
 * properties): the shared data, the project (for deploy/), the shaded job jar and a work folder; and the Maven command
 * the start script uses.
 */
record ClusterItRun(Path sharedData, Path projectDir, Path jobJar, Path work) {
    /**
     * The cluster JVMs' flags in these tests (-Dflowsql.cluster.java-opts= runs them as deployed): the C1 compiler only
     * and the serial collector. A test's cluster lives a minute or two and mostly waits, so the C2 compiler's and G1's
     * background threads cost more CPU than they win back, and CPU is what the parallel CI lanes share.
     */
    private static final String LEAN_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

    /** This run's settings, with the work folder {@code name} under the tests' work directory. */
    static ClusterItRun fromSystemProperties(String name) {
        return new ClusterItRun(Path.of(System.getProperty("flowsql.shared.data")),
                Path.of(System.getProperty("flowsql.project.dir")), Path.of(System.getProperty("flowsql.job.jar")),
                Path.of(System.getProperty("flowsql.test.work"), name));
    }

    /**
     * A standalone cluster in {@code dir} whose scripts resolve their classpaths with {@link #mavenCommand()} into a cache
     * all of this build's cluster tests share (one Maven resolution per build instead of one per test).
     */
    static ScriptedFlinkCluster cluster(Path projectDir, Path dir, int slotsPerTaskManager, String taskManagerMemory) {
        return new ScriptedFlinkCluster(projectDir, dir, mavenCommand(), slotsPerTaskManager, taskManagerMemory)
                .classpathCache(Path.of(System.getProperty("flowsql.test.work"), "classpaths"))
                .javaOptions(javaOptions());
    }

    /** The flags every JVM of the tests' clusters gets (FLOWSQL_JVM_OPTS): {@link #LEAN_JVM} unless the build says otherwise. */
    static String javaOptions() {
        return System.getProperty("flowsql.cluster.java-opts", LEAN_JVM);
    }

    /**
     * Checks that every process the cluster's start script started and that still runs (JobManager, TaskManagers, the HA
     * ZooKeeper) was given {@link #javaOptions()}: a JVM started without them costs the shared CPUs more.
     */
    static void assertClusterJvmsGetTheTestFlags(ScriptedFlinkCluster cluster) {
        List<String> flags = List.of(javaOptions().trim().split("\\s+")).stream().filter(f -> !f.isEmpty()).toList();
        Map<String, Long> processes = cluster.processes();
        assertThat(processes).as("the cluster's processes").isNotEmpty();
        processes.forEach((name, pid) -> {
            if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                assertThat(commandLine(pid)).as("the command line of %s (pid %d)", name, pid).containsAll(flags);
            }
        });
    }

    /**
     * The words of a process's command line, from Linux's /proc (ProcessHandle.Info has none for the cluster's JVMs:
     * their classpaths make the command line longer than the 4 KB it reads).
     */
    private static List<String> commandLine(long pid) {
        try {
            return List.of(new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
                    StandardCharsets.UTF_8).split("\0"));
        } catch (IOException e) {
            throw new UncheckedIOException("reading the command line of " + pid, e);
        }
    }

    /** Maven as the build runs it (same local repository, offline if it is), for the start script's classpath. */
    private static String mavenCommand() {
        return "mvn -B -q -Dmaven.repo.local=" + System.getProperty("flowsql.maven.repo", System.getProperty("user.home") + "/.m2/repository")
                + (System.getProperty("flowsql.maven.settings", "").contains("offline=true") ? " -o" : "");
    }
}

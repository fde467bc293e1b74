package io.flowsql.job;

import io.flowsql.devstack.ScriptedFlinkCluster;
import java.nio.file.Path;

/**
 * What an integration test on the standalone cluster is given by failsafe (the pom's system properties): the shared
 * data, the project (for deploy/), the shaded job jar and a work folder; and the Maven command the start script uses.
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
                .javaOptions(System.getProperty("flowsql.cluster.java-opts", LEAN_JVM));
    }

    /** Maven as the build runs it (same local repository, offline if it is), for the start script's classpath. */
    private static String mavenCommand() {
        return "mvn -B -q -Dmaven.repo.local=" + System.getProperty("flowsql.maven.repo", System.getProperty("user.home") + "/.m2/repository")
                + (System.getProperty("flowsql.maven.settings", "").contains("offline=true") ? " -o" : "");
    }
}

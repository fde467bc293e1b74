package io.flowsql.devstack;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Uuid;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Three real Kafka nodes (KRaft, each broker and controller) on 127.0.0.1, each in a JVM of its own, so a test can
 * kill -9 one ({@link #kill}) and start it again on the same ports and data ({@link #restart}): the failover of
 * partition leaders and transaction coordinators is Kafka's own, not a simulation. Every topic, the offsets and the
 * transaction state log have three replicas and need two in sync (see {@link BrokerProperties#clusterNode}).
 */
public final class LocalKafkaCluster implements AutoCloseable {
    /** Nodes are numbered 1..SIZE (their node.id). */
    public static final int SIZE = 3;
    /** Generous: on a loaded 2-core machine a node's JVM took 60 s to start and 37 s to restart after a kill. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);

    private final Path dataDir;
    private final String clusterId = Uuid.randomUuid().toString();
    private final int[] brokerPorts = new int[SIZE + 1];
    private final int[] controllerPorts = new int[SIZE + 1];
    private final Process[] processes = new Process[SIZE + 1];
    private final Thread shutdownHook = new Thread(this::killAll, "flowsql-kafka-cluster-cleanup");
    private boolean closed;

    private LocalKafkaCluster(Path dataDir) {
        this.dataDir = dataDir;
        for (int n = 1; n <= SIZE; n++) {
            brokerPorts[n] = FreePorts.next();
            controllerPorts[n] = FreePorts.next();
        }
    }

    /**
     * Starts the three nodes (in parallel) with their data under {@code dataDir}, which is deleted on close. A port
     * found free can be taken by another process before a node binds it (tests run side by side): then the whole
     * cluster starts again on new ports, up to {@value #PORT_ATTEMPTS} times.
     */
    public static LocalKafkaCluster start(Path dataDir) {
        for (int attempt = 1; ; attempt++) {
            try {
                return startOnce(dataDir);
            } catch (PortTaken e) {
                if (attempt == PORT_ATTEMPTS) {
                    throw e;
                }
                System.err.println("Kafka cluster: " + e.getMessage().lines().findFirst().orElse("")
                        + "; starting again on new ports (attempt " + (attempt + 1) + " of " + PORT_ATTEMPTS + ")");
            }
        }
    }

    private static final int PORT_ATTEMPTS = 3;

    /** A node could not bind its port: another process took it after it was found free. */
    static final class PortTaken extends IllegalStateException {
        PortTaken(String message) {
            super(message);
        }
    }

    private static LocalKafkaCluster startOnce(Path dataDir) {
        LocalKafkaCluster cluster = new LocalKafkaCluster(dataDir);
        Runtime.getRuntime().addShutdownHook(cluster.shutdownHook);
        try {
            for (int n = 1; n <= SIZE; n++) {
                cluster.launch(n);
            }
            for (int n = 1; n <= SIZE; n++) {
                cluster.awaitReady(n);
            }
            awaitBrokers(cluster.bootstrapServers(), SIZE);
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** Every node's client listener, for clients' bootstrap.servers. */
    public String bootstrapServers() {
        List<String> out = new ArrayList<>();
        for (int n = 1; n <= SIZE; n++) {
            out.add("127.0.0.1:" + brokerPorts[n]);
        }
        return String.join(",", out);
    }

    /** The node whose client listener is {@code port}, 0 if none. */
    public int nodeOfPort(int port) {
        for (int n = 1; n <= SIZE; n++) {
            if (brokerPorts[n] == port) {
                return n;
            }
        }
        return 0;
    }

    /** The process id of node {@code n} (for resource figures and for deploy scripts' kill -9). */
    public long pid(int n) {
        return processes[n].pid();
    }

    public boolean isAlive(int n) {
        return processes[n] != null && processes[n].isAlive();
    }

    /** Creates the topics with three replicas (existing ones are left as they are). */
    public void createTopics(TopicSpec... topics) {
        LocalKafkaBroker.createTopics(bootstrapServers(), List.of(topics));
    }

    /** kill -9 of node {@code n}: no shutdown, no controlled leader move; returns once the process is gone. */
    public void kill(int n) {
        Process p = processes[n];
        p.destroyForcibly();
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("node " + n + " did not die within 30 s of SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted killing node " + n, e);
        }
    }

    /** A controlled stop of node {@code n} (SIGTERM: the broker hands its leaderships over before it exits). */
    public void stop(int n) {
        Process p = processes[n];
        p.destroy();
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                kill(n);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted stopping node " + n, e);
        }
    }

    /** Starts node {@code n} again on its ports and data; returns once it is up and registered with the controller. */
    public void restart(int n) {
        if (isAlive(n)) {
            throw new IllegalStateException("node " + n + " still runs: kill or stop it first");
        }
        launch(n);
        awaitReady(n);
        awaitBrokers(bootstrapServers(), SIZE);
    }

    /** Waits until {@code count} brokers are registered (a restarted one is back) or the start timeout passes. */
    public static void awaitBrokers(String bootstrapServers, int count) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        try (Admin admin = LocalKafkaBroker.admin(bootstrapServers)) {
            while (true) {
                try {
                    if (admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).size() >= count) {
                        return;
                    }
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    // not reachable yet: try again
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(count + " brokers not registered within " + START_TIMEOUT);
                }
                Thread.sleep(200);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for brokers", e);
        }
    }

    /**
     * Waits until every partition of every topic (internal ones included) has all three replicas in sync, as a rolling
     * restart must before it stops the next node (with two of three required in sync, stopping a second node while
     * the first still catches up would stop writes).
     */
    public void awaitFullyReplicated(Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        try (Admin admin = LocalKafkaBroker.admin(bootstrapServers())) {
            while (true) {
                try {
                    var names = admin.listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(true))
                            .names().get(10, TimeUnit.SECONDS);
                    boolean full = admin.describeTopics(names).allTopicNames().get(10, TimeUnit.SECONDS).values().stream()
                            .flatMap(t -> t.partitions().stream()).allMatch(p -> p.isr().size() == p.replicas().size());
                    if (full) {
                        return;
                    }
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    // metadata moving: try again
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("partitions not fully replicated within " + within);
                }
                Thread.sleep(200);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for replication", e);
        }
    }

    private void launch(int n) {
        Path nodeDir = dataDir.resolve("node-" + n);
        try {
            Files.createDirectories(nodeDir);
            Files.deleteIfExists(readyFile(n));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + nodeDir, e);
        }
        String voters = Stream.iterate(1, i -> i + 1).limit(SIZE)
                .map(i -> i + "@127.0.0.1:" + controllerPorts[i]).collect(Collectors.joining(","));
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                KafkaBrokerMain.class.getName(), "--data-dir", nodeDir.toString(), "--node-id", Integer.toString(n),
                "--port", Integer.toString(brokerPorts[n]), "--controller-port", Integer.toString(controllerPorts[n]),
                "--voters", voters, "--cluster-id", clusterId, "--exit-with-parent",
                "--ready-file", readyFile(n).toString());
        try {
            processes[n] = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dataDir.resolve("node-" + n + ".log").toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Kafka node " + n, e);
        }
    }

    private Path readyFile(int n) {
        return dataDir.resolve("node-" + n + ".ready");
    }

    private void awaitReady(int n) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        try {
            while (!Files.exists(readyFile(n)) || Files.size(readyFile(n)) == 0) {
                if (!processes[n].isAlive()) {
                    String log = tail(dataDir.resolve("node-" + n + ".log"));
                    String message = "Kafka node " + n + " exited (" + processes[n].exitValue() + "); log: " + log;
                    if (log.contains("Unable to start acceptor") || log.contains("Address already in use")) {
                        throw new PortTaken(message);
                    }
                    throw new IllegalStateException(message);
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Kafka node " + n + " not ready within " + START_TIMEOUT + "; log: "
                            + tail(dataDir.resolve("node-" + n + ".log")));
                }
                Thread.sleep(100);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for node " + n, e);
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private void killAll() {
        for (int n = 1; n <= SIZE; n++) {
            if (processes[n] != null) {
                processes[n].destroyForcibly();
            }
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        killAll();
        for (int n = 1; n <= SIZE; n++) {
            if (processes[n] != null) {
                try {
                    processes[n].waitFor(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // already shutting down
        }
        LocalKafkaBroker.deleteRecursively(dataDir);
    }
}

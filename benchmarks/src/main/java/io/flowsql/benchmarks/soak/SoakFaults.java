package io.flowsql.benchmarks.soak;

import io.flowsql.devstack.LocalKafkaCluster;
import io.flowsql.devstack.TcpFaultProxy;
import io.flowsql.devstack.TransactionCoordinators;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The faults the soak injects, each run to its end (the component back): a broker killed with SIGKILL and restarted on
 * its ports and data; the simulated model server stopped and started on the same port; PostgreSQL stopped and started on
 * the same port and data; every pooled PostgreSQL connection dropped; a TaskManager terminated and a new one started;
 * the link between job and model server stalled and then slow ({@link TcpFaultProxy}); every broker stopped and
 * started again in turn (a rolling restart); on the standalone cluster also the JobManager killed and started again;
 * where the soak has MariaDB, it stopped and started again on the same port and data (as long as PostgreSQL).
 */
final class SoakFaults {
    static final List<String> KINDS = List.of("broker-kill", "llm-restart", "pg-restart", "pg-drop", "tm-kill",
            "net-stall", "broker-rolling");
    /** The answers sink's transactional ids (kafka.transactional-id-prefix "flowsql" and the sink's name) and topic. */
    static final String ANSWERS_TRANSACTIONS = "flowsql-answers";
    static final String ANSWERS_TOPIC = "answers";
    /** The kind only a cluster whose JobManager is a process of its own (with HA) can have. */
    static final String JOB_MANAGER_KILL = "jm-kill";
    /** The kind only a soak with a MariaDB server has. */
    static final String MARIADB_RESTART = "mariadb-restart";
    /** What the slow half of a net-stall adds to every chunk passed on, both ways. */
    static final Duration SLOW_PER_CHUNK = Duration.ofMillis(200);

    private final LocalKafkaCluster kafka;
    private final SoakModelServer llm;
    private final SoakDatabases databases;
    private final SoakCluster flink;
    private final TcpFaultProxy llmLink;
    private final Outages outages;

    /**
     * How long each stopped component stays down, in seconds; {@code stall}: how long the model server's link is stalled,
     * and then as long slow.
     */
    record Outages(int broker, int llm, int postgres, int stall) {}

    SoakFaults(LocalKafkaCluster kafka, SoakModelServer llm, TcpFaultProxy llmLink, SoakDatabases databases, SoakCluster flink,
            Outages outages) {
        this.kafka = kafka;
        this.llm = llm;
        this.llmLink = llmLink;
        this.databases = databases;
        this.flink = flink;
        this.outages = outages;
    }

    /**
     * The kinds of fault a soak injects, the JobManager kill only where the JobManager can die on its own, the MariaDB
     * restart only where the soak has MariaDB.
     */
    static List<String> kinds(boolean jobManagerCanDie, boolean withMaria) {
        List<String> out = new java.util.ArrayList<>(KINDS);
        if (withMaria) {
            out.add(MARIADB_RESTART);
        }
        if (jobManagerCanDie) {
            out.add(JOB_MANAGER_KILL);
        }
        return List.copyOf(out);
    }

    /** Runs one fault of {@code kind} to its end; returns what it did. */
    String inject(String kind, Random random) throws Exception {
        return switch (kind) {
            case "broker-kill" -> killBroker(random);
            case "llm-restart" -> {
                llm.stop();
                sleepSeconds(outages.llm());
                llm.restart();
                yield llm.name() + " stopped " + outages.llm() + " s and started on the same port";
            }
            case "pg-restart" -> {
                databases.stopPostgres();
                sleepSeconds(outages.postgres());
                databases.startPostgres();
                yield "PostgreSQL stopped " + outages.postgres() + " s and started on the same port and data";
            }
            case MARIADB_RESTART -> {
                databases.stopMaria();
                sleepSeconds(outages.postgres());
                databases.startMaria();
                yield "MariaDB stopped " + outages.postgres() + " s and started on the same port and data";
            }
            case "pg-drop" -> "PostgreSQL dropped " + databases.dropConnections() + " connections";
            case "tm-kill" -> flink.killTaskManager(random);
            case "net-stall" -> stallLink();
            case "broker-rolling" -> rollingRestart();
            case JOB_MANAGER_KILL -> flink.killJobManager();
            default -> throw new IllegalArgumentException("unknown fault " + kind);
        };
    }

    /**
     * kill -9 of the node that coordinates most of the answers sink's transactions (ties: leads most answers
     * partitions), as the issue names it; a random node if the cluster cannot say.
     */
    private String killBroker(Random random) throws InterruptedException {
        int node;
        String why;
        try {
            TransactionCoordinators.Busiest busiest = TransactionCoordinators.busiest(kafka.bootstrapServers(),
                    ANSWERS_TRANSACTIONS, ANSWERS_TOPIC);
            node = busiest.node();
            why = "coordinator of the answers transactions, score " + busiest.score();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException | RuntimeException e) {
            node = 1 + random.nextInt(LocalKafkaCluster.SIZE);
            why = "random, the coordinator not known: " + e.getMessage();
        }
        kafka.kill(node);
        sleepSeconds(outages.broker());
        return "node " + node + " (" + why + ") kill -9, down " + outages.broker() + " s, " + restart(node);
    }

    /** Starts a stopped node again, once more if the first start fails; says which. */
    private String restart(int node) {
        try {
            kafka.restart(node);
            return "restarted";
        } catch (IllegalStateException e) {
            System.out.printf("node %d did not come back (%s); starting it once more%n", node, e.getMessage());
            if (kafka.isAlive(node)) {
                kafka.kill(node);
            }
            kafka.restart(node);
            return "restarted at the second attempt";
        }
    }

    /** The job's link to the model server stalled (bytes held both ways), then slow, then normal. */
    private String stallLink() throws InterruptedException {
        long held = llmLink.heldFromClients();
        long givenUp = llmLink.closedWhileStalled();
        llmLink.stall();
        sleepSeconds(outages.stall());
        long heldNow = llmLink.heldFromClients() - held;
        long givenUpNow = llmLink.closedWhileStalled() - givenUp;
        llmLink.pass();
        llmLink.delay(SLOW_PER_CHUNK);
        sleepSeconds(outages.stall());
        llmLink.pass();
        return String.format("model server link stalled %d s (%d chunks held, %d calls given up by the client), then %d ms"
                + " per chunk for %d s", outages.stall(), heldNow, givenUpNow, SLOW_PER_CHUNK.toMillis(), outages.stall());
    }

    /**
     * Every node stopped (SIGTERM) and started again in turn, each only once every partition has all its replicas in
     * sync again (with min.insync.replicas 2 a second node down would stop writes).
     */
    private String rollingRestart() {
        StringBuilder took = new StringBuilder();
        for (int n = 1; n <= LocalKafkaCluster.SIZE; n++) {
            try {
                kafka.awaitFullyReplicated(Duration.ofMinutes(2));
            } catch (IllegalStateException e) {
                took.append(took.length() == 0 ? "" : ", ").append("(not all in sync before node ").append(n).append(')');
            }
            long stoppedAt = System.nanoTime();
            kafka.stop(n);
            String how = restart(n);
            took.append(took.length() == 0 ? "" : ", ").append("node ").append(n).append(' ')
                    .append(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt)).append(" ms")
                    .append("restarted".equals(how) ? "" : " (" + how + ")");
        }
        return "rolling restart, each node stopped and back in: " + took;
    }

    private static void sleepSeconds(int seconds) throws InterruptedException {
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
    }
}

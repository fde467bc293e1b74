package io.flowsql.benchmarks.soak;

import io.flowsql.devstack.LocalKafkaCluster;

import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The faults the soak injects, each run to its end (the component back): a broker killed with SIGKILL and restarted on
 * its ports and data; the simulated model server stopped and started on the same port; PostgreSQL stopped and started on
 * the same port and data; every pooled PostgreSQL connection dropped; a TaskManager terminated and a new one started.
 */
final class SoakFaults {
    static final List<String> KINDS = List.of("broker-kill", "llm-restart", "pg-restart", "pg-drop", "tm-kill");

    private final LocalKafkaCluster kafka;
    private final RestartableLlm llm;
    private final SoakDatabases databases;
    private final SoakFlink flink;
    private final Outages outages;

    /** How long each stopped component stays down, in seconds. */
    record Outages(int broker, int llm, int postgres) {}

    SoakFaults(LocalKafkaCluster kafka, RestartableLlm llm, SoakDatabases databases, SoakFlink flink, Outages outages) {
        this.kafka = kafka;
        this.llm = llm;
        this.databases = databases;
        this.flink = flink;
        this.outages = outages;
    }

    /** Runs one fault of {@code kind} to its end; returns what it did. */
    String inject(String kind, Random random) throws Exception {
        return switch (kind) {
            case "broker-kill" -> killBroker(random);
            case "llm-restart" -> {
                llm.stop();
                sleepSeconds(outages.llm());
                llm.restart();
                yield "simulator stopped " + outages.llm() + " s and started on the same port";
            }
            case "pg-restart" -> {
                databases.stopPostgres();
                sleepSeconds(outages.postgres());
                databases.startPostgres();
                yield "PostgreSQL stopped " + outages.postgres() + " s and started on the same port and data";
            }
            case "pg-drop" -> "PostgreSQL dropped " + databases.dropConnections() + " connections";
            case "tm-kill" -> flink.killTaskManager(random);
            default -> throw new IllegalArgumentException("unknown fault " + kind);
        };
    }

    private String killBroker(Random random) throws InterruptedException {
        int node = 1 + random.nextInt(LocalKafkaCluster.SIZE);
        kafka.kill(node);
        sleepSeconds(outages.broker());
        try {
            kafka.restart(node);
        } catch (IllegalStateException e) {
            System.out.printf("node %d did not come back (%s); starting it once more%n", node, e.getMessage());
            if (kafka.isAlive(node)) {
                kafka.kill(node);
            }
            kafka.restart(node);
            return "node " + node + " kill -9, down " + outages.broker() + " s, restarted at the second attempt";
        }
        return "node " + node + " kill -9, down " + outages.broker() + " s, restarted";
    }

    private static void sleepSeconds(int seconds) throws InterruptedException {
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
    }
}

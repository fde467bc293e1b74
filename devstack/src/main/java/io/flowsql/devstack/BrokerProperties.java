package io.flowsql.devstack;

import java.nio.file.Path;
import java.util.Properties;

/** The server.properties of a single-node KRaft broker (broker and controller in one) bound to 127.0.0.1. */
public final class BrokerProperties {
    private BrokerProperties() {}

    public static Properties of(Path logDir, int brokerPort, int controllerPort) {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", "1");
        p.setProperty("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("log.dirs", logDir.toAbsolutePath().toString());
        p.setProperty("num.partitions", "1");
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("offsets.topic.num.partitions", "4");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("transaction.state.log.num.partitions", "4");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        p.setProperty("auto.create.topics.enable", "true");
        p.setProperty("log.flush.interval.messages", "1000000");
        return p;
    }

    /**
     * One node of a three-voter KRaft cluster (each node broker and controller, as production's combined mode): every
     * topic, the offsets and the transaction state log replicated three times with two in sync required, and the
     * controller told of a dead broker within 3 s (session timeout) instead of the default 9 s.
     */
    public static Properties clusterNode(Path logDir, int nodeId, int brokerPort, int controllerPort, String voters) {
        Properties p = of(logDir, brokerPort, controllerPort);
        p.setProperty("node.id", Integer.toString(nodeId));
        p.setProperty("controller.quorum.voters", voters);
        p.setProperty("default.replication.factor", "3");
        p.setProperty("min.insync.replicas", "2");
        p.setProperty("offsets.topic.replication.factor", "3");
        p.setProperty("transaction.state.log.replication.factor", "3");
        p.setProperty("transaction.state.log.min.isr", "2");
        p.setProperty("share.coordinator.state.topic.replication.factor", "3");
        p.setProperty("share.coordinator.state.topic.min.isr", "2");
        p.setProperty("broker.heartbeat.interval.ms", "500");
        p.setProperty("broker.session.timeout.ms", "3000");
        p.setProperty("unclean.leader.election.enable", "false");
        p.setProperty("auto.create.topics.enable", "false");
        return p;
    }

    /**
     * Settings that bound what a broker keeps: each partition keeps about {@code bytesPerPartition} (older segments are
     * deleted once the newer ones reach it; a segment is a quarter of it, at least Kafka's 1 MiB), checked every
     * {@code checkEvery}. The local broker of deploy/kafka-start.sh uses it so work/kafka stops growing across runs.
     */
    public static java.util.Map<String, String> retention(long bytesPerPartition, java.time.Duration checkEvery) {
        long segment = Math.max(1L << 20, bytesPerPartition / 4);
        return java.util.Map.of("log.retention.bytes", Long.toString(bytesPerPartition),
                "log.segment.bytes", Long.toString(Math.min(segment, Integer.MAX_VALUE)),
                "log.retention.check.interval.ms", Long.toString(checkEvery.toMillis()));
    }

    /** The listener name of {@link #withSaslSsl}. */
    public static final String SASL_SSL_LISTENER = "SECURED";

    /**
     * Adds a SASL_SSL listener on {@code port} (SCRAM-SHA-512 users, TLS with the given PKCS12 keystore) beside the
     * PLAINTEXT one, which stays the inter-broker listener and the one the broker's own admin uses to create users.
     */
    public static Properties withSaslSsl(Properties p, int port, Path keystore, String keystorePassword) {
        String l = SASL_SSL_LISTENER;
        String prefix = "listener.name." + l.toLowerCase(java.util.Locale.ROOT) + ".";
        p.setProperty("listeners", p.getProperty("listeners") + "," + l + "://127.0.0.1:" + port);
        p.setProperty("advertised.listeners", p.getProperty("advertised.listeners") + "," + l + "://127.0.0.1:" + port);
        p.setProperty("listener.security.protocol.map", p.getProperty("listener.security.protocol.map") + "," + l + ":SASL_SSL");
        p.setProperty("sasl.enabled.mechanisms", "SCRAM-SHA-512");
        p.setProperty(prefix + "scram-sha-512.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        p.setProperty(prefix + "ssl.keystore.location", keystore.toAbsolutePath().toString());
        p.setProperty(prefix + "ssl.keystore.password", keystorePassword);
        p.setProperty(prefix + "ssl.key.password", keystorePassword);
        p.setProperty(prefix + "ssl.keystore.type", "PKCS12");
        return p;
    }
}

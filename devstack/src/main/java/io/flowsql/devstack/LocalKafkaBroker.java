package io.flowsql.devstack;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.utils.Time;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real single-node Kafka broker (KRaft, broker and controller in one JVM) on 127.0.0.1, so tests and
 * the local demo use the genuine protocol, transactions and read_committed semantics instead of a mock.
 */
public final class LocalKafkaBroker implements AutoCloseable {
    private final KafkaRaftServer server;
    private final Path dataDir;
    private final boolean deleteOnClose;
    private final int port;
    /** The SASL_SSL listener's port, 0 when there is none. */
    private final int saslSslPort;
    private boolean closed;

    private LocalKafkaBroker(KafkaRaftServer server, Path dataDir, boolean deleteOnClose, int port, int saslSslPort) {
        this.server = server;
        this.dataDir = dataDir;
        this.deleteOnClose = deleteOnClose;
        this.port = port;
        this.saslSslPort = saslSslPort;
    }

    /**
     * Starts a broker on free ports with a SASL_SSL listener too (SCRAM-SHA-512, TLS with the PKCS12 {@code keystore}):
     * users are added with {@link #createScramUser}, clients reach it at {@link #saslSslBootstrapServers}. Data deleted on close.
     */
    public static LocalKafkaBroker startSaslSsl(Path dataDir, Path keystore, String keystorePassword) {
        int secured = FreePorts.next();
        return start(dataDir, FreePorts.next(), FreePorts.next(), true, java.util.Map.of(),
                p -> BrokerProperties.withSaslSsl(p, secured, keystore, keystorePassword), secured);
    }

    /** Starts a broker keeping its data in {@code dataDir} on free ports; the data is deleted on close. */
    public static LocalKafkaBroker start(Path dataDir) {
        return start(dataDir, FreePorts.next(), FreePorts.next(), true);
    }

    /** Starts a broker on the given ports; an already formatted {@code dataDir} is reused as is. */
    public static LocalKafkaBroker start(Path dataDir, int brokerPort, int controllerPort, boolean deleteOnClose) {
        return start(dataDir, brokerPort, controllerPort, deleteOnClose, java.util.Map.of(), p -> p, 0);
    }

    /** Starts a broker on the given ports with some of its settings changed; an already formatted {@code dataDir} is reused. */
    public static LocalKafkaBroker start(Path dataDir, int brokerPort, int controllerPort, boolean deleteOnClose,
            java.util.Map<String, String> brokerSettings) {
        return start(dataDir, brokerPort, controllerPort, deleteOnClose, brokerSettings, p -> p, 0);
    }

    /** Starts a broker on free ports with some of its settings changed (e.g. transaction.max.timeout.ms); data deleted on close. */
    public static LocalKafkaBroker start(Path dataDir, java.util.Map<String, String> brokerSettings) {
        return start(dataDir, FreePorts.next(), FreePorts.next(), true, brokerSettings, p -> p, 0);
    }

    /**
     * Starts node {@code nodeId} of a three-node cluster ({@link BrokerProperties#clusterNode}); every node of one
     * cluster is formatted with the same {@code clusterId}; an already formatted {@code dataDir} is reused (a restart).
     */
    public static LocalKafkaBroker startClusterNode(Path dataDir, int nodeId, int brokerPort, int controllerPort,
            String voters, String clusterId) {
        Path logDir = dataDir.resolve("kraft-logs");
        return start(dataDir, brokerPort, false,
                BrokerProperties.clusterNode(logDir, nodeId, brokerPort, controllerPort, voters), clusterId, 0);
    }

    private static LocalKafkaBroker start(Path dataDir, int brokerPort, int controllerPort, boolean deleteOnClose,
            java.util.Map<String, String> brokerSettings, java.util.function.UnaryOperator<Properties> listeners,
            int saslSslPort) {
        Properties props = listeners.apply(BrokerProperties.of(dataDir.resolve("kraft-logs"), brokerPort, controllerPort));
        props.putAll(brokerSettings);
        return start(dataDir, brokerPort, deleteOnClose, props, Uuid.randomUuid().toString(), saslSslPort);
    }

    private static LocalKafkaBroker start(Path dataDir, int brokerPort, boolean deleteOnClose, Properties props,
            String clusterId, int saslSslPort) {
        try {
            Path logDir = dataDir.resolve("kraft-logs");
            Files.createDirectories(logDir);
            if (!Files.exists(logDir.resolve("meta.properties"))) {
                format(dataDir, props, clusterId);
            }
            KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
            server.startup();
            return new LocalKafkaBroker(server, dataDir, deleteOnClose, brokerPort, saslSslPort);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare broker data in " + dataDir, e);
        }
    }

    private static void format(Path dataDir, Properties props, String clusterId) throws IOException {
        Path config = dataDir.resolve("server.properties");
        try (OutputStream out = Files.newOutputStream(config)) {
            props.store(out, "FlowSQL local broker");
        }
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        String[] args = {"format", "--cluster-id", clusterId, "--config", config.toString()};
        int code = StorageTool.execute(args, new PrintStream(captured, true, StandardCharsets.UTF_8));
        if (code != 0) {
            throw new IllegalStateException("formatting broker storage failed (" + code + "): "
                    + captured.toString(StandardCharsets.UTF_8));
        }
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** The SASL_SSL listener ({@link #startSaslSsl} only). */
    public String saslSslBootstrapServers() {
        if (saslSslPort == 0) {
            throw new IllegalStateException("this broker has no SASL_SSL listener (start it with startSaslSsl)");
        }
        return "127.0.0.1:" + saslSslPort;
    }

    /** Adds (or changes) a SCRAM-SHA-512 user through the Admin API, before its client connects to the SASL_SSL listener. */
    public void createScramUser(String user, String password) {
        try (Admin admin = admin()) {
            admin.alterUserScramCredentials(List.of(new org.apache.kafka.clients.admin.UserScramCredentialUpsertion(user,
                    new org.apache.kafka.clients.admin.ScramCredentialInfo(
                            org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_512, 8192), password)))
                    .all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create SCRAM user " + user, e);
        }
    }

    public int port() {
        return port;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** Creates the topics (existing ones are left as they are) and waits until they exist. */
    public void createTopics(TopicSpec... topics) {
        createTopics(List.of(topics));
    }

    public void createTopics(List<TopicSpec> topics) {
        createTopics(bootstrapServers(), topics);
    }

    /**
     * Creates the topics on the broker or cluster at {@code bootstrapServers} with its default replication factor (1 on
     * a single node, 3 on {@link LocalKafkaCluster}); existing ones are left as they are; waits until they are listed.
     */
    public static void createTopics(String bootstrapServers, List<TopicSpec> topics) {
        try (Admin admin = admin(bootstrapServers)) {
            for (TopicSpec t : topics) {
                try {
                    admin.createTopics(List.of(new NewTopic(t.name(), java.util.Optional.of(t.partitions()), java.util.Optional.empty())))
                            .all().get(90, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("cannot create topic " + t.name(), e.getCause());
                    }
                }
            }
            awaitListed(admin, topics.stream().map(TopicSpec::name).toList());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("broker did not create topics within 90 s", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot list topics", e.getCause());
        }
    }

    /**
     * The controller accepts a topic before the broker's metadata lists it: wait until every name is listed, so a
     * caller that creates topics and then lists or uses them never races the metadata update.
     */
    private static void awaitListed(Admin admin, List<String> names)
            throws InterruptedException, ExecutionException, java.util.concurrent.TimeoutException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!admin.listTopics().names().get(30, TimeUnit.SECONDS).containsAll(names)) {
            if (System.nanoTime() > deadline) {
                throw new java.util.concurrent.TimeoutException("topics " + names + " not listed within 30 s");
            }
            Thread.sleep(50);
        }
    }

    public Set<String> topicNames() {
        try (Admin admin = admin()) {
            return admin.listTopics().names().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot list topics", e);
        }
    }

    private Admin admin() {
        return admin(bootstrapServers());
    }

    static Admin admin(String bootstrapServers) {
        Properties p = new Properties();
        p.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return Admin.create(p);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        server.shutdown();
        server.awaitShutdown();
        if (deleteOnClose) {
            deleteRecursively(dataDir);
        }
    }

    static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}

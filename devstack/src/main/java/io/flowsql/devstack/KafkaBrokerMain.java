package io.flowsql.devstack;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the local broker as its own process for deploy/kafka-start.sh, creating the project's topics once it is up; with
 * {@code --voters} it is one node of a three-node cluster ({@link LocalKafkaCluster}), a process of its own so a test
 * can kill -9 it.
 */
@Command(name = "flowsql-kafka", mixinStandardHelpOptions = true,
        description = "A single-node KRaft Kafka broker on 127.0.0.1 for local runs, or one node of a local cluster.")
public final class KafkaBrokerMain implements Callable<Integer> {

    @Option(names = "--data-dir", required = true, description = "Where the broker keeps its logs (kept across restarts).")
    Path dataDir;

    @Option(names = "--port", defaultValue = "9092", description = "Client port (default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--controller-port", defaultValue = "9093", description = "KRaft controller port (default ${DEFAULT-VALUE}).")
    int controllerPort;

    @Option(names = "--topic", description = "Topic to create as name[:partitions]; repeatable.")
    List<String> topics = new ArrayList<>();

    @Option(names = "--node-id", defaultValue = "1", description = "This node's id in a cluster (with --voters).")
    int nodeId;

    @Option(names = "--voters", description = "A cluster's controller.quorum.voters (id@host:port,...); absent: a single node.")
    String voters;

    @Option(names = "--cluster-id", description = "The cluster id every node of one cluster is formatted with (with --voters).")
    String clusterId;

    @Option(names = "--retain-mb", defaultValue = "0",
            description = "Keep about this many MiB per partition, deleting the oldest segments (single node; 0 = Kafka's defaults: 7 days, no size limit).")
    long retainMb;

    @Option(names = "--exit-with-parent", description = "Exit when standard input closes (the starting process died).")
    boolean exitWithParent;

    @Option(names = "--ready-file", description = "File to write the bootstrap servers to once the broker and its topics are up.")
    Path readyFile;

    public static void main(String[] args) {
        System.exit(new CommandLine(new KafkaBrokerMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (exitWithParent) {
            Thread watch = new Thread(KafkaBrokerMain::exitOnStdinEof, "flowsql-kafka-parent-watch");
            watch.setDaemon(true);
            watch.start();
        }
        java.util.Map<String, String> kept = retainMb <= 0 ? java.util.Map.of()
                : BrokerProperties.retention(retainMb << 20, java.time.Duration.ofMinutes(1));
        LocalKafkaBroker broker = voters == null ? LocalKafkaBroker.start(dataDir, port, controllerPort, false, kept)
                : LocalKafkaBroker.startClusterNode(dataDir, nodeId, port, controllerPort, voters, clusterId);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            broker.close();
            stopped.countDown();
        }, "flowsql-kafka-shutdown"));
        if (!topics.isEmpty()) {
            if (voters != null) {
                LocalKafkaCluster.awaitBrokers(broker.bootstrapServers(), voters.split(",").length);
            }
            broker.createTopics(topics.stream().map(TopicSpec::parse).toList());
        }
        if (readyFile != null) {
            Files.writeString(readyFile, broker.bootstrapServers() + "\n", StandardCharsets.UTF_8);
        }
        System.out.println("Kafka broker ready on " + broker.bootstrapServers() + ", topics " + broker.topicNames());
        stopped.await();
        return 0;
    }

    private static void exitOnStdinEof() {
        try {
            while (System.in.read() >= 0) {
                // the parent never writes; only the end of the stream matters
            }
        } catch (java.io.IOException e) {
            // a broken pipe is the parent's end too
        }
        System.exit(0);
    }
}

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

/** Runs the local broker as its own process for deploy/kafka-start.sh, creating the project's topics once it is up. */
@Command(name = "flowsql-kafka", mixinStandardHelpOptions = true,
        description = "A single-node KRaft Kafka broker on 127.0.0.1 for local runs.")
public final class KafkaBrokerMain implements Callable<Integer> {

    @Option(names = "--data-dir", required = true, description = "Where the broker keeps its logs (kept across restarts).")
    Path dataDir;

    @Option(names = "--port", defaultValue = "9092", description = "Client port (default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--controller-port", defaultValue = "9093", description = "KRaft controller port (default ${DEFAULT-VALUE}).")
    int controllerPort;

    @Option(names = "--topic", description = "Topic to create as name[:partitions]; repeatable.")
    List<String> topics = new ArrayList<>();

    @Option(names = "--ready-file", description = "File to write the bootstrap servers to once the broker and its topics are up.")
    Path readyFile;

    public static void main(String[] args) {
        System.exit(new CommandLine(new KafkaBrokerMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        LocalKafkaBroker broker = LocalKafkaBroker.start(dataDir, port, controllerPort, false);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            broker.close();
            stopped.countDown();
        }, "flowsql-kafka-shutdown"));
        broker.createTopics(topics.stream().map(TopicSpec::parse).toList());
        if (readyFile != null) {
            Files.writeString(readyFile, broker.bootstrapServers() + "\n", StandardCharsets.UTF_8);
        }
        System.out.println("Kafka broker ready on " + broker.bootstrapServers() + ", topics " + broker.topicNames());
        stopped.await();
        return 0;
    }
}

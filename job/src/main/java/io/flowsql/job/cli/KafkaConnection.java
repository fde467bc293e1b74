package io.flowsql.job.cli;

import io.flowsql.config.kafka.KafkaClientFactory;
import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CLI's Kafka options, the same as the job's: the brokers, kafka.client.* properties and a kafka.client-file whose
 * values (credentials) are read by reference inside the Kafka client, never by the CLI.
 */
final class KafkaConnection {
    @Option(names = {"-b", "--bootstrap-servers"}, defaultValue = "127.0.0.1:9092", description = "Kafka (default ${DEFAULT-VALUE}).")
    String bootstrapServers;

    @Option(names = "--kafka-client-file", description = "Kafka client properties file (SASL, TLS, credentials), as the job's "
            + "kafka.client-file: its values are read by the Kafka client itself and never printed.")
    String clientFile;

    @Option(names = "--kafka-client", paramLabel = "PROPERTY=VALUE", description = "A Kafka client property, as the job's "
            + "kafka.client.<property> (e.g. security.protocol=SASL_SSL); credentials belong in --kafka-client-file.")
    Map<String, String> clientProperties = new LinkedHashMap<>();

    KafkaClientFactory factory() {
        return new KafkaClientFactory(bootstrapServers, clientProperties, clientFile);
    }
}

package io.flowsql.config.kafka;

import io.flowsql.config.OptionFamily;
import io.flowsql.config.Settings;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import java.util.List;

/**
 * The Kafka room's options: the brokers, how every client reaches them ({@code kafka.client.*},
 * {@code kafka.client-file}) and the topics the job, the console and the tools share. The job composes them into
 * its own options (JobOptions); the console reads them without the job.
 */
public final class KafkaOptions {
    private KafkaOptions() {}

    public static final ConfigOption<String> BOOTSTRAP_SERVERS = ConfigOptions.key("kafka.bootstrap-servers")
            .stringType().defaultValue("127.0.0.1:9092")
            .withDescription("Kafka bootstrap servers.");
    public static final ConfigOption<String> KAFKA_CLIENT_FILE = ConfigOptions.key("kafka.client-file")
            .stringType().defaultValue("")
            .withDescription("A properties file of Kafka client properties (SASL, TLS, credentials) for every client, "
                    + "read by reference where each client runs (Kafka's FileConfigProvider): the values never enter the "
                    + "job's configuration, logs, --print or Flink's web UI. Same path on the client and every TaskManager.");
    public static final ConfigOption<String> QUESTIONS_TOPIC = ConfigOptions.key("kafka.topic.questions")
            .stringType().defaultValue("questions")
            .withDescription("Topic the questions are read from.");
    public static final ConfigOption<String> ANSWERS_TOPIC = ConfigOptions.key("kafka.topic.answers")
            .stringType().defaultValue("answers")
            .withDescription("Topic the answers are written to (exactly once) and read back, read_committed, for dialogue history.");
    public static final ConfigOption<String> DEAD_LETTERS_TOPIC = ConfigOptions.key("kafka.topic.dead-letters")
            .stringType().defaultValue("dead-letters")
            .withDescription("Topic refused records go to, with reason and topic/partition/offset.");
    public static final ConfigOption<String> FEEDBACK_TOPIC = ConfigOptions.key("kafka.topic.feedback")
            .stringType().defaultValue("feedback")
            .withDescription("Topic of feedback (verified pairs, verdicts, retractions; schemas/feedback.schema.json) the job learns from "
                    + "while it runs; subscribed by name, so the job starts without it and picks it up once it exists; blank = no learning.");
    public static final ConfigOption<String> KNOWLEDGE_TOPIC = ConfigOptions.key("kafka.topic.knowledge")
            .stringType().defaultValue("")
            .withDescription("Topic of knowledge entries (business definitions and their retractions; schemas/knowledge.schema.json) "
                    + "put into the prompts' evidence of the questions that mention them; subscribed by name, so the job starts "
                    + "without it; blank (default) = no knowledge entries.");

    /**
     * Kafka client properties passed through to every client as they are, e.g.
     * {@code kafka.client.security.protocol=SASL_SSL}, {@code kafka.client.sasl.jaas.config=...} (see docs/OPERATIONS.md).
     */
    public static final OptionFamily<String> KAFKA_CLIENT = OptionFamily.of("kafka.client.", "<property>",
            String.class, "A Kafka client property for every source and sink, e.g. "
                    + "kafka.client.security.protocol=SASL_SSL; those the job sets itself are refused.");

    /** Prefix of the Kafka client pass-through ({@link #KAFKA_CLIENT}). */
    public static final String KAFKA_CLIENT_PREFIX = KAFKA_CLIENT.prefix();

    public static List<ConfigOption<?>> options() {
        return List.of(BOOTSTRAP_SERVERS, KAFKA_CLIENT_FILE, QUESTIONS_TOPIC, ANSWERS_TOPIC, DEAD_LETTERS_TOPIC,
                FEEDBACK_TOPIC, KNOWLEDGE_TOPIC);
    }

    /** The one way every Kafka client is made from these settings: the brokers, kafka.client.* and kafka.client-file. */
    public static KafkaClientFactory clients(Settings settings) {
        return new KafkaClientFactory(settings.get(BOOTSTRAP_SERVERS), settings.get(KAFKA_CLIENT),
                settings.get(KAFKA_CLIENT_FILE));
    }
}

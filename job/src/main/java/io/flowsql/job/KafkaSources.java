package io.flowsql.job;

import io.flowsql.events.AnswerEvent;
import io.flowsql.job.kafka.AnswerFeedbackDeserializer;
import io.flowsql.job.kafka.RawRecord;
import io.flowsql.job.kafka.RawRecordDeserializer;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.IsolationLevel;

import java.util.Map;
import java.util.Properties;

/**
 * Builds the job's two Kafka sources from the configuration: the questions, and the answers read back (read_committed).
 * The kafka.client.* pass-through properties (SASL, TLS) are applied first, so the job's own settings win; they
 * may change the consumer defaults ({@link #consumerProperties}).
 */
public final class KafkaSources {
    private KafkaSources() {}

    /**
     * How long the broker may hold a consumer's fetch when there is nothing new: it answers as soon as a record (or a
     * transaction's commit) arrives, so this costs no latency; it only sets how often an idle source asks again
     * (Kafka's default, 500 ms, is two round trips per second per source while the job waits for questions).
     */
    static final String IDLE_FETCH_WAIT_MS = "5000";

    /** The properties every source starts from: the job's consumer defaults, then the kafka.client.* pass-through. */
    static Properties consumerProperties(JobConfig config) {
        return config.kafkaClients().properties(CONSUMER_DEFAULTS);
    }

    private static final Map<String, String> CONSUMER_DEFAULTS = Map.of(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, IDLE_FETCH_WAIT_MS);

    private static <T> KafkaSourceBuilder<T> builder(JobConfig config) {
        return config.kafkaClients().source(CONSUMER_DEFAULTS);
    }

    public static KafkaSource<RawRecord> questions(JobConfig config) {
        return KafkaSources.<RawRecord>builder(config)
                .setTopics(config.get(JobOptions.QUESTIONS_TOPIC))
                .setGroupId(config.get(JobOptions.GROUP_ID))
                .setClientIdPrefix(config.get(JobOptions.GROUP_ID) + "-questions")
                .setStartingOffsets(config.get(JobOptions.STARTING_OFFSETS).initializer())
                .setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")
                .setDeserializer(new RawRecordDeserializer())
                .build();
    }

    /**
     * The feedback topic (verified pairs, verdicts, retractions), read_committed, always from its beginning when the
     * job starts without state (not from the group's committed offsets): the live library is rebuilt from the topic,
     * while a restore resumes from the offsets in its checkpoint. Subscribed by a pattern that matches only its name,
     * so a job starts without the topic and picks it up (partition discovery every 10 s) once it is created.
     */
    public static KafkaSource<RawRecord> feedback(JobConfig config) {
        return replayed(config, config.get(JobOptions.FEEDBACK_TOPIC), "-learn");
    }

    /** The knowledge topic, read as the feedback topic is (read_committed, from its beginning, by name). */
    public static KafkaSource<RawRecord> knowledge(JobConfig config) {
        return replayed(config, config.get(JobOptions.KNOWLEDGE_TOPIC), "-knowledge");
    }

    private static KafkaSource<RawRecord> replayed(JobConfig config, String topic, String groupSuffix) {
        String group = config.get(JobOptions.GROUP_ID) + groupSuffix;
        return KafkaSources.<RawRecord>builder(config)
                .setTopicPattern(java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(topic.trim())))
                .setGroupId(group)
                .setClientIdPrefix(group)
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")
                .setProperty("partition.discovery.interval.ms", "10000")
                .setDeserializer(new RawRecordDeserializer())
                .build();
    }

    /**
     * The answers topic as the dialogue history's feedback, from the beginning, with the isolation level of
     * {@code dialogue.feedback-isolation}: read_committed (default) keeps a dialogue's turns in order across restores;
     * read_uncommitted lets the next turn start as soon as the previous answer is written, before its checkpoint
     * commits, at the price argued in docs/TOPOLOGY.md ("Dialogue context and the feedback loop").
     */
    public static KafkaSource<AnswerEvent> answersFeedback(JobConfig config) {
        return answers(config, config.get(JobOptions.GROUP_ID) + "-feedback", feedbackIsolation(config));
    }

    /**
     * The answers topic as committed (read_committed, whatever dialogue.feedback-isolation says): an answer read
     * here will never be written again, so its request's stage journal can be released.
     */
    public static KafkaSource<AnswerEvent> committedAnswers(JobConfig config) {
        return answers(config, config.get(JobOptions.GROUP_ID) + "-journal-release", IsolationLevel.READ_COMMITTED.toString());
    }

    private static KafkaSource<AnswerEvent> answers(JobConfig config, String group, String isolation) {
        return KafkaSources.<AnswerEvent>builder(config)
                .setTopics(config.get(JobOptions.ANSWERS_TOPIC))
                .setGroupId(group)
                .setClientIdPrefix(group)
                .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))
                .setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation)
                .setDeserializer(new AnswerFeedbackDeserializer())
                .build();
    }

    /** The consumer's isolation.level value (Kafka's IsolationLevel prints as read_committed / read_uncommitted). */
    static String feedbackIsolation(JobConfig config) {
        return config.get(JobOptions.FEEDBACK_ISOLATION).toString();
    }
}

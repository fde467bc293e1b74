package io.flowsql.job;

import io.flowsql.devstack.TopicSpec;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The Kafka side every job ITCase shares: the job's topics, the options that point a job at the test
 * broker, questions sent keyed by dialogue as clients send them, and what the job committed read back
 * the way a read_committed client reads it.
 */
final class JobTopics {
    static final String QUESTIONS = "questions";
    static final String ANSWERS = "answers";
    static final String DEAD_LETTERS = "dead-letters";
    /** The feedback topic's default name (kafka.topic.feedback). */
    static final String FEEDBACK = "feedback";

    private final String bootstrapServers;
    private final String questionsTopic;
    private final String answersTopic;
    private final String run;

    JobTopics(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
        this.questionsTopic = QUESTIONS;
        this.answersTopic = ANSWERS;
        this.run = "";
    }

    /**
     * A job of its own on a shared broker: topics {@code questions-<run>}, {@code answers-<run>},
     * {@code dead-letters-<run>} (created here with {@code partitions} partitions), its own consumer group and
     * transactional ids, so several jobs of one test class see nothing of each other.
     */
    JobTopics(String bootstrapServers, String run, int partitions) throws Exception {
        this.bootstrapServers = bootstrapServers;
        this.questionsTopic = QUESTIONS + "-" + run;
        this.answersTopic = ANSWERS + "-" + run;
        this.run = run;
        Properties p = new Properties();
        p.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(List.of(new NewTopic(questionsTopic, partitions, (short) 1),
                    new NewTopic(answersTopic, partitions, (short) 1),
                    new NewTopic(DEAD_LETTERS + "-" + run, 1, (short) 1))).all().get();
        }
    }

    /** The three topics of the job, questions and answers with {@code partitions} partitions each. */
    static TopicSpec[] specs(int partitions) {
        return new TopicSpec[] {new TopicSpec(QUESTIONS, partitions), new TopicSpec(ANSWERS, partitions),
                new TopicSpec(DEAD_LETTERS, 1)};
    }

    /** Options every ITCase job shares: this broker, 1 s checkpoints, the shared data, parallelism 2, the LLM at {@code llmBaseUrl}. */
    JobConfig jobConfig(Path sharedData, String llmBaseUrl, Map<String, String> overrides) {
        return JobConfig.of(Map.of(
                JobOptions.BOOTSTRAP_SERVERS.key(), bootstrapServers,
                JobOptions.CHECKPOINT_INTERVAL.key(), "1s",
                JobOptions.TRANSACTION_TIMEOUT.key(), "60s",
                JobOptions.SHARED_DATA.key(), sharedData.toString(),
                JobOptions.PARALLELISM.key(), "2",
                JobOptions.LLM_BASE_URL.key(), llmBaseUrl,
                // the job tests' waits are sized for five samples per opensearch question; the authors' 21 (the default)
                // are checked by RequestParametersOverHttpTest in udfs. A test may override it.
                JobOptions.AGENT_CANDIDATES.key(), "5",
                // the dialogue checks (CosqlDialogues) expect every MMSQL stage, the schema selector included, on every
                // turn: CoSQL's schemas are below the authors' size threshold (agents.mmsql-select-above-columns, 30),
                // which udfs' MmsqlAblationTest covers. A test may override it.
                JobOptions.AGENT_MMSQL_SELECT_ABOVE_COLUMNS.key(), "0")).with(runTopics()).with(overrides);
    }

    private Map<String, String> runTopics() {
        if (run.isEmpty()) {
            return Map.of();
        }
        return Map.of(JobOptions.QUESTIONS_TOPIC.key(), questionsTopic, JobOptions.ANSWERS_TOPIC.key(), answersTopic,
                JobOptions.DEAD_LETTERS_TOPIC.key(), DEAD_LETTERS + "-" + run,
                JobOptions.GROUP_ID.key(), "flowsql-" + run, JobOptions.TRANSACTIONAL_ID_PREFIX.key(), "flowsql-" + run);
    }

    /** The questions topic of this job. */
    String questionsTopic() {
        return questionsTopic;
    }

    /** Sends the questions to the questions topic, keyed by dialogue id, in list order. */
    void sendQuestions(List<QuestionEvent> questions) {
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            for (QuestionEvent q : questions) {
                producer.send(new ProducerRecord<>(questionsTopic, q.dialogueId.getBytes(StandardCharsets.UTF_8), EventJson.toBytes(q)));
            }
            producer.flush();
        }
    }

    /** Sends raw values (whatever their content) to the questions topic, with the given keys. */
    void sendRaw(Map<String, String> valueByKey) {
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            valueByKey.forEach((key, value) -> producer.send(new ProducerRecord<>(questionsTopic,
                    key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8))));
            producer.flush();
        }
    }

    /** Sends records exactly as given (any bytes, any key, null keys included) to the questions topic, in list order. */
    void sendRecords(List<Map.Entry<byte[], byte[]>> keyAndValue) {
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            for (Map.Entry<byte[], byte[]> record : keyAndValue) {
                producer.send(new ProducerRecord<>(QUESTIONS, record.getKey(), record.getValue()));
            }
            producer.flush();
        }
    }

    /**
     * The committed records of {@code topic} once at least {@code atLeast} arrived (or {@code within} ran
     * out), plus whatever follows during {@code quiet}, so duplicates would show.
     */
    List<ConsumerRecord<byte[], byte[]>> committed(String topic, int atLeast, Duration within, Duration quiet) {
        try (TopicReader reader = new TopicReader(bootstrapServers, topic)) {
            reader.readAtLeast(atLeast, within);
            return reader.drain(quiet);
        }
    }

    /** The committed answers, parsed, in the order read (per partition, the order the job wrote them). */
    List<AnswerEvent> committedAnswers(int atLeast, Duration within, Duration quiet) {
        List<AnswerEvent> answers = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : committed(answersTopic, atLeast, within, quiet)) {
            answers.add(EventJson.parseAnswer(r.value()));
        }
        return answers;
    }

    private KafkaProducer<byte[], byte[]> producer() {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }
}

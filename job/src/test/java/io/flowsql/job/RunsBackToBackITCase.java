package io.flowsql.job;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.job.cli.FlowSqlCli;
import io.flowsql.job.sql.FlowSqlScript;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs of the job back to back on one broker, as the quickstart runs them (real broker, MiniCluster, simulated LLM over
 * HTTP): each run sends its questions, waits for their answers, waits for the group to commit the questions to their end
 * ({@code flowsql.sh caught-up}, what the quickstart does before it stops the job), then stops the job without a
 * savepoint (cancel, as the quickstart's kill). The next job starts without state from the group's committed offsets.
 * The Flink SQL path reads the questions under the same group ({@code kafka.group-id}), so it starts where the last
 * DataStream run stopped and the next DataStream run starts where it stopped. And a job killed in the window between
 * its answers' commit and its offsets' commit: the next job reads those questions again, and its request-id check,
 * seeded from the answers read back, dead-letters them instead of answering them twice.
 */
class RunsBackToBackITCase {
    private static final int PER_RUN = 3;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster();

    @Test
    void quickstartQuickstartSqlPathQuickstartAnswerEachQuestionExactlyOnce() throws Exception {
        Path sharedData = sharedData();
        List<QuestionEvent> texts = SpiderQuestions.of(sharedData, "concert_singer", 4 * PER_RUN);
        try (OracleLlm llm = OracleLlm.start(sharedData)) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(JobOptions.STRATEGY.key(), "opensearch",
                    JobOptions.LLM_MODEL.key(), "test-model"));
            String group = config.get(JobOptions.GROUP_ID);

            run(dataStreamJob(config), topics, questions(texts, 0, 1), group);
            run(dataStreamJob(config), topics, questions(texts, 1, 2), group);
            run(sqlPath(config), topics, questions(texts, 2, 3), group);
            List<AnswerEvent> answers = run(dataStreamJob(config), topics, questions(texts, 3, 4), group);

            Map<String, Long> perId = answers.stream().collect(Collectors.groupingBy(a -> a.requestId, Collectors.counting()));
            assertThat(perId).as("each question of the four runs answered exactly once").hasSize(4 * PER_RUN)
                    .allSatisfy((id, n) -> assertThat(n).as(id).isOne());
        }
    }

    @Test
    void aJobKilledBeforeItsOffsetsCommitAnswersNoQuestionTwice() throws Exception {
        killedBeforeItsOffsetsCommit("crash", RunsBackToBackITCase::dataStreamJob);
    }

    /** The same window on the Flink SQL path: its FLOWSQL_ANSWER reads the last answers back at each start. */
    @Test
    void theSqlPathKilledBeforeItsOffsetsCommitAnswersNoQuestionTwice() throws Exception {
        killedBeforeItsOffsetsCommit("sqlcrash", RunsBackToBackITCase::sqlPath);
    }

    private static void killedBeforeItsOffsetsCommit(String suffix, java.util.function.Function<JobConfig, Starter> starter)
            throws Exception {
        Path sharedData = sharedData();
        List<QuestionEvent> texts = questions(SpiderQuestions.of(sharedData, "concert_singer", 2 * PER_RUN), 0, 2);
        try (OracleLlm llm = OracleLlm.start(sharedData)) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers(), suffix, 2);
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(JobOptions.STRATEGY.key(), "opensearch"));
            String group = config.get(JobOptions.GROUP_ID);
            List<QuestionEvent> first = texts.subList(0, PER_RUN);
            try (JobCluster.RunningJob job = starter.apply(config).start()) {
                topics.sendQuestions(first);
                assertThat(topics.committedAnswers(PER_RUN, Duration.ofSeconds(120), Duration.ZERO)).hasSize(PER_RUN);
            }
            // the kill fell in the window: the answers are committed, the group's position is not (the whole window, made
            // deterministic: the position goes back to the topic's start, so every answered question is read again)
            rewindGroup(group, config.get(JobOptions.QUESTIONS_TOPIC));

            List<QuestionEvent> second = texts.subList(PER_RUN, 2 * PER_RUN);
            try (JobCluster.RunningJob job = starter.apply(config).start()) {
                topics.sendQuestions(second);
                List<AnswerEvent> answers = topics.committedAnswers(2 * PER_RUN, Duration.ofSeconds(120), Duration.ofSeconds(3));
                Map<String, Long> perId = answers.stream().collect(Collectors.groupingBy(a -> a.requestId, Collectors.counting()));
                assertThat(perId).as("each question answered exactly once across the kill").hasSize(2 * PER_RUN)
                        .allSatisfy((id, n) -> assertThat(n).as(id).isOne());
                List<ConsumerRecord<byte[], byte[]>> deadLetters = topics.committed(JobTopics.DEAD_LETTERS + "-" + suffix,
                        PER_RUN, Duration.ofSeconds(30), Duration.ZERO);
                List<DeadLetterEvent> repeats = deadLetters.stream().map(r -> EventJson.parseDeadLetter(r.value())).toList();
                assertThat(repeats).as("the first run's questions were read again, and refused as already answered")
                        .hasSize(PER_RUN).allSatisfy(d -> assertThat(d.reason)
                                .startsWith("duplicate_request_id: ").contains("already answered"));
            }
        }
    }

    private interface Starter {
        JobCluster.RunningJob start() throws Exception;
    }

    private static Starter dataStreamJob(JobConfig config) {
        return () -> JobCluster.start("back-to-back", config);
    }

    /** The bundled Flink SQL script, as deploy/flowsql-sql.sh runs it, on the test's cluster. */
    private static Starter sqlPath(JobConfig config) {
        return () -> {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            FlowSqlJob.configure(env, config);
            return new JobCluster.RunningJob(FlowSqlScript.run(StreamTableEnvironment.create(env),
                    FlowSqlScript.bundledFor(config)).getJobClient().orElseThrow());
        };
    }

    private static List<AnswerEvent> run(Starter starter, JobTopics topics, List<QuestionEvent> questions, String group)
            throws Exception {
        int answersSoFar = Integer.parseInt(questions.get(questions.size() - 1).requestId.substring(2)) + 1;
        try (JobCluster.RunningJob job = starter.start()) {
            topics.sendQuestions(questions);
            List<AnswerEvent> answers = topics.committedAnswers(answersSoFar, Duration.ofSeconds(120), Duration.ofSeconds(2));
            assertThat(answers).as("answers after this run").hasSize(answersSoFar);
            caughtUp(JobTopics.QUESTIONS, group);
            return answers;
        }
    }

    /** {@code flowsql.sh caught-up}: waits until {@code group} has committed {@code topic} to its end. */
    private static void caughtUp(String topic, String group) {
        StringWriter err = new StringWriter();
        int caughtUp = new CommandLine(new FlowSqlCli()).setErr(new PrintWriter(err, true)).execute("caught-up",
                "-b", KAFKA.bootstrapServers(), "-t", topic, "-g", group, "--timeout", "60s");
        assertThat(caughtUp).as(err.toString()).isZero();
        assertThat(err.toString()).contains("has committed " + topic + " to its end");
    }

    /** Sets the group's committed offsets of {@code topic} back to 0 (the job must be stopped). */
    private static void rewindGroup(String group, String topic) throws Exception {
        Properties p = new Properties();
        p.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        try (Admin admin = Admin.create(p)) {
            Map<TopicPartition, OffsetAndMetadata> start = new HashMap<>();
            int partitions = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size();
            for (int i = 0; i < partitions; i++) {
                start.put(new TopicPartition(topic, i), new OffsetAndMetadata(0));
            }
            admin.alterConsumerGroupOffsets(group, start).all().get();
        }
    }

    /** Questions q-(from × PER_RUN) … of the Spider texts, each in its own dialogue. */
    private static List<QuestionEvent> questions(List<QuestionEvent> texts, int fromRun, int toRun) {
        List<QuestionEvent> out = new ArrayList<>();
        for (int i = fromRun * PER_RUN; i < toRun * PER_RUN; i++) {
            out.add(new QuestionEvent("q-" + i, "d-" + i, texts.get(i).dbId, texts.get(i).question));
        }
        return out;
    }

    private static Path sharedData() {
        return Path.of(System.getProperty("flowsql.shared.data"));
    }
}

package io.flowsql.job;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.QuestionEvent;
import io.flowsql.events.QuestionOptions;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.HistogramStatistics;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Flink metrics docs/ARCHITECTURE.md promises, read from a real run of the job (real broker,
 * MiniCluster with an in-memory metric reporter, the simulated LLM over HTTP in oracle mode): ten Spider
 * questions under preset opensearch must show up as LLM calls, tokens and latencies of their stages, as
 * one answer counted per question, and leave no question in flight once their answers came back.
 */
class MetricsITCase {
    private static final int QUESTIONS = 10;
    private static final String GENERATE = "flowsql.stage.opensearch.generate.";
    private static final String EXECUTE = "flowsql.stage.candidates.execute.";
    private static final String ANSWERS = "flowsql.answers.";
    private static final String DIALOGUE = "flowsql.dialogue.";
    private static final List<String> STATUSES = List.of("answered", "clarification", "refused", "failed");

    private static final InMemoryReporter REPORTER = InMemoryReporter.create();

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster(REPORTER.addToConfiguration(new Configuration()), 4);

    @Test
    void tenOpensearchQuestionsShowUpInTheStageAnswerAndDialogueMetrics() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        assertThat(sharedData.resolve("spider/database/concert_singer/concert_singer.sqlite"))
                .as("Spider data is needed beside the project (flowsql.shared.data)").isRegularFile();
        List<QuestionEvent> questions = SpiderQuestions.of(sharedData, "concert_singer", QUESTIONS);
        questions.forEach(MetricsITCase::underOpensearch);
        assertThat(questions).hasSize(QUESTIONS);

        try (OracleLlm llm = OracleLlm.start(sharedData)) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(
                    JobOptions.LLM_MODEL.key(), "test-model",
                    JobOptions.CHECKPOINT_INTERVAL.key(), "500ms",
                    // Far beyond the test's wait: in-flight questions must be released by their answers, not by this timer.
                    JobOptions.FEEDBACK_WAIT.key(), "10min"));
            try (JobCluster.RunningJob job = JobCluster.start("metrics", config)) {
                topics.sendQuestions(questions);
                topics.sendRaw(Map.of("bad-0", "this is not json {"));
                List<AnswerEvent> answers = topics.committedAnswers(QUESTIONS, Duration.ofSeconds(40), Duration.ofMillis(500));
                assertThat(answers).as("one committed answer per question").hasSize(QUESTIONS);
                assertThat(topics.committed(JobTopics.DEAD_LETTERS, 1, Duration.ofSeconds(10), Duration.ZERO))
                        .as("the invalid record was read and dead-lettered before the answers are counted").hasSize(1);

                JobID id = job.id();
                assertStageMetrics(id);
                assertAnswerMetrics(id, answers);
                assertDialogueMetrics(id);
            }
        }
    }

    private static void underOpensearch(QuestionEvent q) {
        q.options = new QuestionOptions();
        q.options.strategy = "opensearch";
    }

    private static void assertStageMetrics(JobID id) {
        assertThat(counterSum(id, GENERATE + "applied")).as("generate ran once per question").isEqualTo(QUESTIONS);
        assertThat(counterSum(id, GENERATE + "llmCalls")).as("generate's LLM calls").isGreaterThanOrEqualTo(QUESTIONS);
        assertThat(counterSum(id, GENERATE + "promptTokens")).as("generate's prompt tokens").isPositive();
        assertThat(counterSum(id, GENERATE + "completionTokens")).as("generate's completion tokens").isPositive();
        assertThat(counterSum(id, GENERATE + "failures")).as("generate's failures against the oracle").isZero();
        assertThat(counterSum(id, GENERATE + "timeouts")).isZero();
        List<Histogram> generateLatency = histograms(id, GENERATE + "latencyMs");
        assertThat(updates(generateLatency)).as("one generate latency per question").isEqualTo(QUESTIONS);
        assertThat(generateLatency).allMatch(h -> within(h, 0, 30_000));

        assertThat(updates(histograms(id, EXECUTE + "gatherLatencyMs")))
                .as("one gather per question whose candidates ran").isGreaterThanOrEqualTo(QUESTIONS);
        assertThat(counterSum(id, EXECUTE + "candidatesTimedOut")).isZero();
    }

    private static void assertAnswerMetrics(JobID id, List<AnswerEvent> answers) {
        Map<String, Long> countedByStatus = new TreeMap<>();
        for (String status : STATUSES) {
            countedByStatus.put(status, counterSum(id, ANSWERS + status));
        }
        Map<String, Long> committedByStatus = new TreeMap<>(answers.stream()
                .collect(Collectors.groupingBy(a -> a.status, Collectors.counting())));
        STATUSES.forEach(s -> committedByStatus.putIfAbsent(s, 0L));
        assertThat(countedByStatus).as("answers counted per status, as committed").isEqualTo(committedByStatus);
        assertThat(countedByStatus.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(QUESTIONS);

        List<Histogram> endToEnd = histograms(id, ANSWERS + "endToEndMs");
        assertThat(updates(endToEnd)).as("one end-to-end latency per answer").isEqualTo(QUESTIONS);
        assertThat(endToEnd).allMatch(h -> within(h, 0, 60_000));

        List<Histogram> agreement = histograms(id, ANSWERS + "voteAgreementPercent");
        assertThat(updates(agreement)).as("opensearch votes on every answered question")
                .isGreaterThanOrEqualTo(countedByStatus.get("answered"));
        assertThat(agreement).allMatch(h -> within(h, 1, 100));
    }

    private static void assertDialogueMetrics(JobID id) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 15_000;
        while (gaugeSum(id, DIALOGUE + "questionsInFlight") != 0 && System.currentTimeMillis() < deadline) {
            Thread.sleep(200);
        }
        assertThat(gaugeSum(id, DIALOGUE + "questionsInFlight")).as("in flight once every answer came back").isZero();
        assertThat(gaugeSum(id, DIALOGUE + "questionsWaiting")).isZero();
        assertThat(counterSum(id, DIALOGUE + "feedbackTimeouts")).as("released by their answers, not by the timer").isZero();
        assertThat(metrics(id, DIALOGUE + "duplicateFeedback")).isNotEmpty();
    }

    /**
     * Every subtask's instance of the metric whose identifier ends with {@code suffix}; fails when there is none. (By
     * group, not {@code getMetricsByIdentifiers}: a task of one operator has the operator's name, so the task's and
     * the operator's IO metrics share identifiers and that map refuses them.)
     */
    private static List<Metric> metrics(JobID id, String suffix) {
        List<Metric> found = REPORTER.getMetricsByGroup().entrySet().stream()
                .flatMap(g -> g.getValue().entrySet().stream()
                        .filter(m -> g.getKey().getMetricIdentifier(m.getKey()).endsWith("." + suffix))
                        .map(Map.Entry::getValue))
                .toList();
        assertThat(found).as("metric registered: " + suffix).isNotEmpty();
        return found;
    }

    private static long counterSum(JobID id, String suffix) {
        return metrics(id, suffix).stream().mapToLong(m -> ((Counter) m).getCount()).sum();
    }

    private static long gaugeSum(JobID id, String suffix) {
        return metrics(id, suffix).stream().mapToLong(m -> ((Number) ((Gauge<?>) m).getValue()).longValue()).sum();
    }

    private static List<Histogram> histograms(JobID id, String suffix) {
        return metrics(id, suffix).stream().map(m -> (Histogram) m).toList();
    }

    /** How many values the subtasks' histograms were updated with, all told. */
    private static long updates(List<Histogram> histograms) {
        return histograms.stream().mapToLong(Histogram::getCount).sum();
    }

    private static boolean within(Histogram h, long min, long max) {
        HistogramStatistics s = h.getStatistics();
        return h.getCount() == 0 || (s.getMin() >= min && s.getMax() <= max);
    }
}

package io.flowsql.job;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once through failures: 1000 questions, and a task that dies twice mid-run (a map after the
 * topology throws when it first meets two chosen answers, then lets them pass). The job restarts from
 * its last checkpoint each time, and a read_committed reader still sees exactly one answer per
 * question: no gaps, no duplicates.
 */
class RecoveryITCase {
    private static final int QUESTIONS = 1000;
    private static final Set<String> CRASH_ON = Set.of("q-300", "q-700");

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster();

    @Test
    void aThousandQuestionsAndTwoTaskFailuresGiveExactlyAThousandAnswers() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        List<QuestionEvent> questions = SpiderQuestions.cycled(sharedData, QUESTIONS, "opensearch");
        CrashOnce.CRASHED.clear();

        try (OracleLlm llm = OracleLlm.start(sharedData)) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(
                    JobOptions.CHECKPOINT_INTERVAL.key(), "500ms"));
            List<AnswerEvent> answers;
            // The test's seam: the crashing map between the answer operator and its sink.
            try (JobCluster.RunningJob job = JobCluster.job(config).restartOnFailure()
                    .beforeAnswersSink(stream -> stream.map(new CrashOnce(CRASH_ON)).uid("test-crash-once").name("crash once"))
                    .start("recovery")) {
                topics.sendQuestions(questions);
                answers = topics.committedAnswers(QUESTIONS, Duration.ofSeconds(100), Duration.ofSeconds(3));
                assertThat(failures(job.id())).as("the job failed twice, each time by the injected failure")
                        .hasSize(2).allMatch(trace -> trace.contains("injected task failure"));
            }

            assertThat(CrashOnce.CRASHED).as("both failures happened").containsExactlyInAnyOrderElementsOf(CRASH_ON);
            Map<String, Long> perRequest = answers.stream()
                    .collect(Collectors.groupingBy(a -> a.requestId, Collectors.counting()));
            assertThat(perRequest.keySet()).as("no gaps").containsExactlyInAnyOrderElementsOf(
                    questions.stream().map(q -> q.requestId).toList());
            assertThat(answers).as("no duplicates").hasSize(QUESTIONS);
            assertThat(answers).filteredOn(a -> "answered".equals(a.status)).as("the oracle answers most of them")
                    .hasSizeGreaterThan(QUESTIONS * 9 / 10);
        }
    }

    /**
     * The failures the job went through, as its REST API's exception history lists them (newest first): each entry's
     * root failure and the failures of other subtasks concurrent with it (two crashes in one restart window are one
     * entry with a concurrent exception).
     */
    private static List<String> failures(JobID job) throws Exception {
        Configuration client = FLINK.getClientConfiguration();
        URI uri = URI.create("http://" + client.get(RestOptions.ADDRESS) + ":" + client.get(RestOptions.PORT)
                + "/jobs/" + job + "/exceptions");
        String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        List<String> out = new ArrayList<>();
        EventJson.mapper().readTree(body).path("exceptionHistory").path("entries")
                .forEach(e -> {
                    out.add(e.path("stacktrace").asText());
                    e.path("concurrentExceptions").forEach(c -> out.add(c.path("stacktrace").asText()));
                });
        return out;
    }

    /** Fails its task the first time it meets each chosen answer in this JVM, so the failure happens once, not after every restart. */
    static final class CrashOnce implements MapFunction<AnswerEvent, AnswerEvent> {
        static final Set<String> CRASHED = ConcurrentHashMap.newKeySet();
        private final Set<String> crashOn;

        CrashOnce(Set<String> crashOn) {
            this.crashOn = Set.copyOf(crashOn);
        }

        @Override
        public AnswerEvent map(AnswerEvent answer) {
            if (crashOn.contains(answer.requestId) && CRASHED.add(answer.requestId)) {
                throw new IllegalStateException("injected task failure at " + answer.requestId);
            }
            return answer;
        }
    }
}

package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.llama.LlamaServer;
import io.flowsql.devstack.llama.TinyGguf;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.QuestionEvent;
import io.flowsql.events.QuestionOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * llama.cpp's server is killed in the middle of a 12-question run and comes back 10 s later (a crash and a
 * restart; half the questions are sent while it is down): with the default retry schedule no question is lost, each is answered once, and the retries show
 * in the traces.
 */
class LlamaServerOutageITCase {
    /**
     * 10 s: the default backoff (0.5 s doubling, at most 5 s) is at its cap by then, so each call sent during the outage
     * fails 4–5 times and waits a full 5 s backoff across the restart; 20 s only added two more 5 s waits.
     */
    private static final Duration OUTAGE = Duration.ofSeconds(10);
    /** 12, not 20: the tiny model's generation is CPU-bound, and 20 took 2.4 min of CI's 30 for the same checks. */
    private static final int QUESTIONS = 12;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster(4);

    @Test
    void aTenSecondOutageMidRunLosesNoQuestion() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        try (LlamaServer server = TinyModel.start("outage", "-c", "16384", "--parallel", "4")) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, server.baseUrl(), Map.of(
                    JobOptions.LLM_MODEL.key(), "tiny-random",
                    JobOptions.LLM_STRUCTURED_OUTPUT.key(), "json-schema",
                    JobOptions.LLM_REPLY_OVERLAY.key(), TinyGguf.replyOverlay(),
                    JobOptions.LLM_SERVER_SLOTS.key(), "4",
                    JobOptions.AGENT_MAG_REFINE_ROUNDS.key(), "1"));
            try (JobCluster.RunningJob job = JobCluster.start("llama-server outage", config)) {
                List<QuestionEvent> questions = questions(sharedData);
                topics.sendQuestions(questions.subList(0, QUESTIONS / 2));
                topics.committedAnswers(1, Duration.ofMinutes(5), Duration.ZERO);
                server.stop();
                long down = System.nanoTime();
                topics.sendQuestions(questions.subList(QUESTIONS / 2, questions.size()));
                Thread.sleep(OUTAGE.toMillis());
                server.start();
                System.out.printf("llama-server was down for %d s%n", (System.nanoTime() - down) / 1_000_000_000L);

                List<AnswerEvent> answers = topics.committedAnswers(questions.size(), Duration.ofMinutes(8), Duration.ofSeconds(3));
                Map<String, Long> perRequest = answers.stream().collect(Collectors.groupingBy(a -> a.requestId, Collectors.counting()));
                assertThat(perRequest.keySet()).containsExactlyInAnyOrderElementsOf(questions.stream().map(q -> q.requestId).toList());
                assertThat(perRequest.values()).as("each answered once").allMatch(n -> n == 1);
                for (AnswerEvent a : answers) {
                    String why = a.requestId + ": " + a.status + " " + a.failedStage + " " + a.error;
                    assertThat(a.error == null ? "" : a.error).as(why).doesNotContain("RETRIES_EXHAUSTED")
                            .doesNotContain("CONNECTION").doesNotContain("timed out");
                    assertThat(a.trace).as(why).allSatisfy(t -> assertThat(t.error).as(why + " " + t.stage).isNull());
                }
                int retries = answers.stream().flatMap(a -> a.trace.stream()).mapToInt(t -> t.retries).sum();
                assertThat(retries).as("the outage shows as retries in the traces").isPositive();
                System.out.printf("llama-server outage: %d answers, %d retries in their traces%n", answers.size(), retries);
            }
        }
    }

    private static List<QuestionEvent> questions(Path sharedData) throws Exception {
        List<QuestionEvent> out = new ArrayList<>();
        for (QuestionEvent q : SpiderQuestions.of(sharedData, "concert_singer", QUESTIONS)) {
            q.options = new QuestionOptions();
            q.options.strategy = out.size() % 2 == 0 ? "opensearch" : "mag-sql";
            out.add(q);
        }
        return out;
    }
}

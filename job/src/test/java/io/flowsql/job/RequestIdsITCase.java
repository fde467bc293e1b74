package io.flowsql.job;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Request ids are invariants on the production job (real broker, MiniCluster, simulated LLM over HTTP): 200 questions,
 * 20 of which reuse an earlier request id: 10 while the first is still in flight (sent right behind it), 10 after its
 * answer was committed. Exactly 200 outcomes: 180 answers, one per id, and 20 dead letters saying
 * {@code duplicate_request_id}; and the dialogues whose ids were repeated go on: a follow-up turn in each is answered
 * (with a 10 min feedback wait, a stalled dialogue would not answer it within the test).
 */
class RequestIdsITCase {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster();

    @Test
    void twoHundredQuestionsWithTwentyReusedIdsGiveExactlyTwoHundredOutcomes() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        List<QuestionEvent> texts = SpiderQuestions.of(sharedData, "concert_singer", 40);
        List<QuestionEvent> first = new ArrayList<>();
        for (int i = 0; i < 170; i++) {
            first.add(question("q-" + i, "d-" + i, texts.get(i % texts.size())));
        }
        List<QuestionEvent> phase1 = new ArrayList<>(first);
        for (int i = 0; i < 10; i++) {
            phase1.add(2 * i + 1, question("q-" + i, "d-" + i, texts.get(i))); // right behind its first
        }

        try (OracleLlm llm = OracleLlm.start(sharedData)) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(
                    JobOptions.STRATEGY.key(), "opensearch",
                    JobOptions.FEEDBACK_WAIT.key(), "10min"));
            try (JobCluster.RunningJob job = JobCluster.start("request-ids", config)) {
                topics.sendQuestions(phase1);
                List<AnswerEvent> answers = topics.committedAnswers(170, Duration.ofSeconds(120), Duration.ofSeconds(1));
                assertThat(answers).hasSize(170);

                List<QuestionEvent> phase2 = new ArrayList<>();
                for (int i = 10; i < 20; i++) {
                    phase2.add(question("q-" + i, "d-" + i, texts.get(i))); // its answer is already committed
                }
                for (int i = 0; i < 10; i++) {
                    phase2.add(question("q-" + (170 + i), "d-" + i, texts.get(20 + i))); // a next turn of a repeated dialogue
                }
                topics.sendQuestions(phase2);
                answers = topics.committedAnswers(180, Duration.ofSeconds(90), Duration.ofSeconds(3));
                List<DeadLetterEvent> deadLetters = deadLetters(topics, 20);

                Map<String, Long> perId = answers.stream().collect(Collectors.groupingBy(a -> a.requestId, Collectors.counting()));
                assertThat(perId).as("one answer per request id").hasSize(180).allSatisfy((id, n) -> assertThat(n).isOne());
                assertThat(deadLetters).as("one dead letter per reused id").hasSize(20).allSatisfy(d ->
                        assertThat(d.reason).startsWith("duplicate_request_id: request_id q-"));
                assertThat(deadLetters.stream().map(d -> EventJson.parseQuestion(d.raw.getBytes(StandardCharsets.UTF_8)).question().requestId))
                        .containsExactlyInAnyOrderElementsOf(IntStream.range(0, 20).mapToObj(i -> "q-" + i).toList());
                assertThat(answers.size() + deadLetters.size()).as("outcomes").isEqualTo(200);
                assertThat(perId.keySet()).as("the next turns of the dialogues whose ids were repeated are answered")
                        .containsAll(IntStream.range(170, 180).mapToObj(i -> "q-" + i).toList());
            }
        }
    }

    private static QuestionEvent question(String id, String dialogue, QuestionEvent text) {
        return new QuestionEvent(id, dialogue, text.dbId, text.question);
    }

    private static List<DeadLetterEvent> deadLetters(JobTopics topics, int atLeast) throws IOException {
        List<DeadLetterEvent> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : topics.committed(JobTopics.DEAD_LETTERS, atLeast, Duration.ofSeconds(30),
                Duration.ofSeconds(1))) {
            out.add(EventJson.mapper().readValue(r.value(), DeadLetterEvent.class));
        }
        return out;
    }
}

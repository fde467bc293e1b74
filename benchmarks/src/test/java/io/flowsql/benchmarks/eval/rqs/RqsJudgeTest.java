package io.flowsql.benchmarks.eval.rqs;

import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.llm.LlmClient;
import io.flowsql.llm.LlmClientConfig;
import io.flowsql.llm.OpenAiCompatibleClient;
import io.flowsql.simulator.RecordedRequest;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * RQS through a judge endpoint over HTTP: the project's simulator on loopback plays the judge (score 0 for an empty
 * reply, 10 when the reply shares a word with the reference, else 5), and the averages follow MMSQL's script.
 */
class RqsJudgeTest {

    private static ItemOutcome turn(String id, String dialogue, String goldType, String predictedType) {
        BenchmarkItem item = new BenchmarkItem(id, 0, "car_1", "question " + id, "", "", "unknown", dialogue, 0, goldType);
        return new ItemOutcome(item, "", predictedType, null, null, false, Double.NaN, List.of());
    }

    @Test
    void theJudgeIsAskedWithTheRubricAndScoresAreAveragedPerType() {
        Map<String, String> replies = Map.of(
                "u1", "The database has no colour of cars.", "u2", "I cannot help with that.",
                "a1", "Which year do you mean?", "i1", "Goodbye!");
        Map<String, String> reference = Map.of(
                "u1", "The database does not store any colour.", "u2", "There is no popularity data.",
                "a1", "Do you mean the model year?", "i1", "Welcome, goodbye!");
        List<ItemOutcome> outcomes = List.of(
                turn("u1", "d0", "unanswerable", "unanswerable"),  // shares "database": 10
                turn("u2", "d0", "unanswerable", "unanswerable"),  // no shared word of 4+ letters: 5
                turn("u3", "d0", "unanswerable", "answerable"),    // type wrong: 0, not judged
                turn("a1", "d1", "ambiguous", "ambiguous"),        // shares "year"... "year" has 4 letters: 10
                turn("i1", "d1", "improper", "improper"),          // shares "goodbye": 10
                turn("s1", "d1", "answerable", "answerable"));     // SQL turn: no RQS
        try (SimulatedLlmServer judge = SimulatedLlmServer.start(SimulatorConfig.builder().port(0)
                .responders(AgentResponders.all()).build());
             LlmClient client = OpenAiCompatibleClient.builder(LlmClientConfig.builder(judge.baseUrl())
                     .defaultModel("judge").build()).build()) {
            RqsJudge rqs = new RqsJudge(client, "judge", 60);
            RqsScores scores = RqsScores.of(outcomes, o -> rqs.judge("car_1", "CREATE TABLE cars_data (Id INTEGER, Year INTEGER)",
                    o.item().question(), o.item().questionType(), replies.get(o.item().id()), reference.get(o.item().id())), "judge");
            // unanswerable: (10 + 5 + 0) / 3 = 5; ambiguous: 10 / 1; improper: 10 / 1; overall (5 + 10 + 10) / 3
            assertThat(scores.byType().get("unanswerable")).isCloseTo(5.0, within(1e-9));
            assertThat(scores.byType().get("ambiguous")).isCloseTo(10.0, within(1e-9));
            assertThat(scores.byType().get("improper")).isCloseTo(10.0, within(1e-9));
            assertThat(scores.overall()).isCloseTo(25.0 / 3, within(1e-9));
            assertThat(scores.judged()).isEqualTo(4);
            assertThat(scores.errors()).isZero();
            List<RecordedRequest> asked = judge.requests();
            assertThat(asked).hasSize(4);
            String prompt = asked.get(0).request().lastUserMessage();
            assertThat(asked.get(0).request().task()).isEqualTo(RqsJudge.STAGE);
            assertThat(prompt).contains("Relevance: 0 = completely irrelevant").contains("Utility:")
                    .contains("CREATE TABLE cars_data").contains("Ground truth type: unanswerable")
                    .contains("System response: The database has no colour of cars.")
                    .contains("Reference answer: The database does not store any colour.");
        }
    }

    @Test
    void aReplyWithoutTheAskedJsonIsNoScore() {
        assertThat(RqsJudge.parse("Score: 7")).isNull();
        assertThat(RqsJudge.parse("{\"Score\": \"11\"}")).isNull();
        assertThat(RqsJudge.parse("here {\"AnswerType\": \"improper\", \"Rationale\": \"ok\", \"Score\": \"9\"} done").score()).isEqualTo(9);
    }
}

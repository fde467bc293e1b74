package io.flowsql.llm;

import static io.flowsql.llm.SimulatorClients.patient;
import static io.flowsql.llm.SimulatorClients.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.simulator.Fault;
import io.flowsql.simulator.RecordedRequest;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Replies the simulator cuts at max_tokens (finish_reason "length", content halved) over HTTP: asked again once with
 * twice the budget, and counted in the stage trace when still cut.
 */
class TruncatedRepliesOverHttpTest {

    private static SimulatedLlmServer serverWith(Fault... scripted) {
        return SimulatedLlmServer.start(SimulatorConfig.builder()
                .responder(SimulatorClients.SAMPLE_TASK, (r, context) -> Optional.of(IntStream.range(0, Math.max(1, r.n()))
                        .mapToObj(i -> "#SQL: SELECT " + i + " FROM singer WHERE name = 'a long enough text'").toList()))
                .scriptedFaults(scripted)
                .build());
    }

    @Test
    void aCutReplyIsAskedAgainWithTwiceTheBudget() {
        try (SimulatedLlmServer server = serverWith(Fault.TRUNCATED_CONTENT);
                OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(patient(server, 4).build()).build()) {
            StageTrace trace = new StageTrace("test");
            List<String> sqls = new AgentCall(client).askSamples(
                    request("test.sample", "q").withSampling(0.7, 3).withMaxTokens(1000), ModelOutput::sql, trace).join();

            assertThat(sqls).hasSize(3);
            List<RecordedRequest> seen = server.requests();
            assertThat(seen).extracting(r -> r.request().maxTokens()).containsExactly(1000, 2000);
            assertThat(seen).extracting(r -> r.request().n()).containsExactly(3, 3);
            assertThat(seen).extracting(r -> r.request().temperature()).containsExactly(0.7, 0.7);
            assertThat(trace.truncatedReplies).isZero();
        }
    }

    @Test
    void aReplyStillCutIsTracedAndFailsTyped() {
        try (SimulatedLlmServer server = serverWith(Fault.TRUNCATED_CONTENT, Fault.TRUNCATED_CONTENT);
                OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(patient(server, 4).build()).build()) {
            StageTrace trace = new StageTrace("test");
            assertThatThrownBy(() -> new AgentCall(client).askSamples(request("test.sample", "q").withSampling(0.7, 2)
                    .withMaxTokens(1000), ModelOutput::sql, trace).join())
                    .isInstanceOf(CompletionException.class).cause().isInstanceOfSatisfying(LlmException.class,
                            e -> assertThat(e.kind()).isEqualTo(LlmErrorKind.TRUNCATED_OUTPUT));
            assertThat(trace.truncatedReplies).as("both choices of the second reply were cut").isEqualTo(2);
            assertThat(server.requests()).extracting(r -> r.request().maxTokens()).containsExactly(1000, 2000);
            assertThat(server.requests()).extracting(r -> r.request().temperature()).containsOnly(0.7);
        }
    }
}

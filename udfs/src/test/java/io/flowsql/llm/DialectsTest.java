package io.flowsql.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.simulator.Dialect;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each documented server configuration, against the simulator speaking that server's dialect. */
class DialectsTest {

    @ParameterizedTest
    @EnumSource(Dialect.class)
    void nChoicesUsageAndTheSimulatedMarkOnEveryDialect(Dialect dialect) {
        SimulatorConfig config = SimulatorConfig.builder().dialect(dialect)
                .responder(SimulatorClients.SAMPLE_TASK, SimulatorClients.sampling()).build();
        try (SimulatedLlmServer server = SimulatedLlmServer.start(config);
                OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(
                        SimulatorClients.fastRetries(server).build()).build()) {
            ChatResponse response = client.chat(SimulatorClients.request("vote", "How many singers?")
                    .withSampling(0.8, 3).withJsonResponse(true)).join();
            assertThat(response.choices()).hasSize(3).doesNotHaveDuplicates();
            assertThat(response.simulated()).isTrue();
            assertThat(response.model()).startsWith("simulated/");
            assertThat(response.usage().promptTokens()).isPositive();
            assertThat(response.usage().completionTokens()).isPositive();
            assertThat(response.usage().estimated()).isEqualTo(!dialect.reportsUsage());
            assertThat(server.requestCount()).isEqualTo(dialect.servesN() ? 1 : 3);
            assertThat(client.meter().stage("vote").estimatedCalls()).isEqualTo(dialect.reportsUsage() ? 0 : 1);
        }
    }
}

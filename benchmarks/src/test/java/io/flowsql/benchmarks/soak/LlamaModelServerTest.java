package io.flowsql.benchmarks.soak;

import io.flowsql.devstack.llama.LlamaServer;
import io.flowsql.job.JobConfig;
import io.flowsql.job.JobOptions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.fail;

/** The soak's llama-server: the llm-restart fault kills it and brings it back on the same port, seen in the figures. */
class LlamaModelServerTest {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void theRestartFaultKillsTheServerAndBringsItBackOnTheSamePort(@TempDir Path folder) throws Exception {
        requireBinary();
        try (LlamaModelServer server = LlamaModelServer.start(folder)) {
            int port = server.port();
            List<ProcessFigures> running = server.processes();
            assertThat(running).singleElement().satisfies(f -> {
                assertThat(f.name()).isEqualTo("llama-server");
                assertThat(f.threads()).isPositive();
                assertThat(f.rssMb()).isPositive();
            });
            assertThat(health(port)).isEqualTo(200);
            JobConfig config = JobConfig.of(server.jobOptions());
            assertThat(config.get(JobOptions.LLM_SERVER_SLOTS)).as("what the job is told").isEqualTo(LlamaModelServer.SLOTS);
            assertThat(config.get(JobOptions.LLM_MODEL)).isEqualTo("tiny-random");

            server.stop();
            assertThat(server.processes()).as("figures while it is down").isEmpty();
            assertThatThrownBy(() -> health(port)).isInstanceOf(ConnectException.class);

            server.restart();
            assertThat(server.port()).isEqualTo(port);
            assertThat(health(port)).isEqualTo(200);
            assertThat(server.processes()).singleElement().extracting(ProcessFigures::threads)
                    .satisfies(threads -> assertThat(threads).isPositive());
        }
    }

    private int health(int port) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static void requireBinary() {
        if (LlamaServer.findBinary().isEmpty()) {
            String message = "llama-server is not built: run deploy/llama-server-build.sh";
            if (LlamaServer.required()) {
                fail(message + " (" + LlamaServer.REQUIRED_ENV + " is set)");
            }
            Assumptions.abort(message);
        }
    }
}

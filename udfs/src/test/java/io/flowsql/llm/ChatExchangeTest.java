package io.flowsql.llm;

import static io.flowsql.llm.SimulatorClients.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Each exchange reuses its server's address, parsed and encoded once, and the Authorization value, checked once
 * ({@link ChatExchange.Endpoint#of}): what goes on the wire is what async-http-client made of the URL text before, and
 * a key that could end its header is refused when the client is built, not sent.
 */
class ChatExchangeTest {

    @Test
    void theRequestLineCarriesTheBaseUrlEncodedAsTheHttpClientEncodesIt() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 16, InetAddress.getLoopbackAddress())) {
            List<String> requestLines = new CopyOnWriteArrayList<>();
            Thread accept = new Thread(() -> {
                while (!listener.isClosed()) {
                    try (Socket socket = listener.accept()) {
                        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                                StandardCharsets.ISO_8859_1));
                        requestLines.add(in.readLine());
                    } catch (Exception closed) {
                        return;
                    }
                }
            }, "request-line-server");
            accept.setDaemon(true);
            accept.start();
            String base = "http://127.0.0.1:" + listener.getLocalPort() + "/team proxy/v1";
            LlmClientConfig config = LlmClientConfig.builder(base).defaultModel("m").callTimeout(Duration.ofSeconds(2))
                    .totalBudget(Duration.ofSeconds(3)).initialBackoff(Duration.ofMillis(10))
                    .maxBackoff(Duration.ofMillis(20)).build();
            try (OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(config).build()) {
                CompletableFuture<ChatResponse> chat = client.chat(request("s", "q"));
                CompletableFuture<EmbeddingResponse> embed = client.embed(EmbeddingRequest.of("e", List.of("x")));
                assertThatThrownBy(() -> chat.get(20, TimeUnit.SECONDS)).as("the server closes without answering");
                assertThatThrownBy(() -> embed.get(20, TimeUnit.SECONDS));
            }
            assertThat(requestLines).contains(
                    "POST /team%20proxy/v1/chat/completions HTTP/1.1",
                    "POST /team%20proxy/v1/embeddings HTTP/1.1");
            assertThat(ChatExchange.encodedUri(base + "/chat/completions").toRelativeUrl())
                    .isEqualTo("/team%20proxy/v1/chat/completions");
        }
    }

    @Test
    void aKeyThatCouldEndItsHeaderIsRefusedWhenTheClientIsBuiltWithoutShowingIt() {
        LlmClientConfig config = LlmClientConfig.builder("http://127.0.0.1:9/v1").defaultModel("m")
                .apiKey("sk-abc\r\nX-Injected: yes").build();
        assertThatThrownBy(() -> OpenAiCompatibleClient.builder(config).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Authorization header")
                .hasMessageContaining("character 14")
                .hasMessageNotContaining("sk-abc");
        assertThat(ChatExchange.headerValue("Authorization", "Bearer sk-\tok~")).isEqualTo("Bearer sk-\tok~");
        assertThatThrownBy(() -> ChatExchange.headerValue("Authorization", "Bearer ключ"))
                .hasMessageContaining("code 1082");
    }
}

package io.flowsql.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.flowsql.devstack.FreePorts;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A pass-through HTTP proxy in front of a model server that adds up the {@code usage} of every successful
 * answer, so a test can compare what the server says it spent with what the answers' traces say.
 */
final class UsageRecordingProxy implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(16);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String target;
    final AtomicLong promptTokens = new AtomicLong();
    final AtomicLong completionTokens = new AtomicLong();
    final AtomicLong answers = new AtomicLong();
    /** Answered requests by the start of their first message and their prompt tokens, to find calls a trace missed. */
    final java.util.concurrent.ConcurrentMap<String, Integer> byPrompt = new java.util.concurrent.ConcurrentSkipListMap<>();

    private static String promptHead(byte[] body) {
        try {
            JsonNode request = JSON.readTree(body);
            JsonNode messages = request.path("messages");
            String head = messages.isArray() && messages.size() > 0 ? messages.get(0).path("content").asText()
                    : "embeddings of " + request.path("input").size();
            return head.substring(0, Math.min(60, head.length())).replace('\n', ' ');
        } catch (IOException e) {
            return "?";
        }
    }

    /** @param target the server's origin, e.g. http://127.0.0.1:8080 */
    UsageRecordingProxy(String target) throws IOException {
        this.target = target;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", FreePorts.next()), 64);
        server.setExecutor(threads);
        server.createContext("/", this::forward);
        server.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    private void forward(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            HttpRequest request = HttpRequest.newBuilder(URI.create(target + exchange.getRequestURI()))
                    .timeout(Duration.ofMinutes(5))
                    .header("Content-Type", "application/json")
                    .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body)).build();
            HttpResponse<byte[]> response;
            try {
                response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            } catch (IOException e) {
                exchange.sendResponseHeaders(502, -1);
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exchange.sendResponseHeaders(503, -1);
                return;
            }
            if (response.statusCode() == 200) {
                JsonNode usage = JSON.readTree(response.body()).path("usage");
                byPrompt.merge(promptHead(body) + " | " + usage.path("prompt_tokens").asLong(), 1, Integer::sum);
                promptTokens.addAndGet(usage.path("prompt_tokens").asLong());
                completionTokens.addAndGet(usage.path("completion_tokens").asLong());
                answers.incrementAndGet();
            }
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(response.statusCode(), response.body().length == 0 ? -1 : response.body().length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(response.body());
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}

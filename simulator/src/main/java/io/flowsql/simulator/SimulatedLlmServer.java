package io.flowsql.simulator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The project's own OpenAI-compatible stand-in for a language model, on 127.0.0.1 only: tests,
 * benchmarks and the demo talk HTTP to it because no model is reachable here. It never passes for
 * a model: every answer is marked simulated.
 */
public final class SimulatedLlmServer implements AutoCloseable {
    static {
        // Without TCP_NODELAY the JDK server's separate header and body writes meet the client's
        // delayed ACK and every answer waits ~40 ms; read once when the JDK server first loads.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    private final SimulatorConfig config;
    private final HttpServer server;
    private final ExecutorService workers;
    private final SlotGate gate;
    private final RequestLog log;
    private final TokenTally tokens = new TokenTally();
    private final EmbeddingsHandler embeddings;

    private SimulatedLlmServer(SimulatorConfig config) throws IOException {
        this.config = config;
        ObjectMapper json = new ObjectMapper();
        this.gate = new SlotGate(config.slots());
        this.log = new RequestLog(config.recordRequests());
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), config.port()), 1024);
        this.workers = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "simulated-llm");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(workers);
        server.createContext("/v1/chat/completions", new ChatCompletionsHandler(config, json, gate, log, tokens));
        this.embeddings = new EmbeddingsHandler(json, config);
        server.createContext("/v1/embeddings", embeddings);
        byte[] models = json.writeValueAsBytes(new ResponseWriter(json, config.dialect()).models(modelNames()));
        server.createContext("/v1/models", exchange -> sendModels(exchange, models));
    }

    /** Starts a server with the given configuration; close it to free the port and its threads. */
    public static SimulatedLlmServer start(SimulatorConfig config) {
        try {
            SimulatedLlmServer simulated = new SimulatedLlmServer(config);
            simulated.server.start();
            return simulated;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the simulated LLM server", e);
        }
    }

    /** "http://127.0.0.1:PORT/v1", the base URL an OpenAI-compatible client is given. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port() + "/v1";
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Chat requests received (including those answered with a fault). */
    public long requestCount() {
        return log.count();
    }

    /** Every chat request received so far, in arrival order (empty when recording is off). */
    public List<RecordedRequest> requests() {
        return log.snapshot();
    }

    /** Embeddings requests received, faulted ones included (each may carry many texts). */
    public long embeddingRequests() {
        return embeddings.requests();
    }

    /** Texts embedded over all embeddings requests answered. */
    public long embeddedTexts() {
        return embeddings.texts();
    }

    /** The most chat requests that were inside the server at the same moment. */
    public int maxConcurrentRequests() {
        return gate.maxInFlight();
    }

    /** The most slots that were decoding at the same moment (never above the configured slots). */
    public int maxBusySlots() {
        return gate.maxBusySlots();
    }

    /**
     * The decoding slots' busy time since start, read now: between two readings it grows by at most slots × the elapsed
     * time, so {@link BusySlots#shareSince} is the share of the server's capacity used in between (never above 1).
     */
    public BusySlots busySlots() {
        return gate.busySlots();
    }

    /** Requests waiting for a slot right now. */
    public int queuedRequests() {
        return gate.queued();
    }

    /** Forgets the recorded requests and resets the count and the token counts. */
    public void clearRequests() {
        log.clear();
        tokens.reset();
    }

    /** Prompt, cached prompt and completion tokens of the completions answered since start or {@link #clearRequests()}. */
    public TokenCounts tokenCounts() {
        return tokens.snapshot();
    }

    @Override
    public void close() {
        server.stop(0);
        workers.shutdownNow();
        try {
            workers.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private List<String> modelNames() {
        List<String> names = new ArrayList<>(List.of("default"));
        names.addAll(config.responders().keySet());
        return names;
    }

    private static void sendModels(HttpExchange exchange, byte[] body) throws IOException {
        exchange.getResponseHeaders().add("X-FlowSQL-Simulated", "true");
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}

package io.flowsql.simulator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * Serves POST /v1/chat/completions: counts and records the request, injects the planned fault,
 * waits for a slot and the modelled latency, and answers through the responder for the task.
 */
final class ChatCompletionsHandler implements HttpHandler {
    private final SimulatorConfig config;
    private final ObjectMapper json;
    private final RequestReader reader;
    private final ResponseWriter writer;
    private final FaultPlan faults;
    private final SlotGate gate;
    private final RequestLog log;
    private final Responder fallback = new GenericResponder();
    private final AtomicLong sequence = new AtomicLong();
    private final FreshDraws draws = new FreshDraws();
    private final PrefixCache prefixCache;
    private final TokenTally tokens;

    ChatCompletionsHandler(SimulatorConfig config, ObjectMapper json, SlotGate gate, RequestLog log, TokenTally tokens) {
        this.config = config;
        this.json = json;
        this.reader = new RequestReader(json, config.dialect());
        this.writer = new ResponseWriter(json, config.dialect());
        this.faults = new FaultPlan(config.faultRates(), config.scriptedFaults(), config.seed());
        this.gate = gate;
        this.log = log;
        this.tokens = tokens;
        this.prefixCache = new PrefixCache(config.prefixCacheTokens());
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        long receivedAt = System.nanoTime();
        SlotGate.Visit visit = gate.arrived();
        try {
            exchange.getResponseHeaders().add("X-FlowSQL-Simulated", "true");
            if (!"POST".equals(exchange.getRequestMethod())) {
                send(exchange, visit, 405, writer.error("invalid_request_error", "use POST"));
                return;
            }
            byte[] body = exchange.getRequestBody().readAllBytes();
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            SimulatedRequest request;
            try {
                request = reader.read(body);
            } catch (IOException e) {
                log.add(new RecordedRequest(receivedAt, null, Fault.NONE, authorization));
                send(exchange, visit, 400, writer.error("invalid_request_error", e.getMessage()));
                return;
            }
            if (config.requiredApiKey().isPresent()
                    && !("Bearer " + config.requiredApiKey().get()).equals(authorization)) {
                log.add(new RecordedRequest(receivedAt, request, Fault.NONE, authorization));
                send(exchange, visit, 401, writer.error("authentication_error", "missing or wrong API key"));
                return;
            }
            Fault fault = faults.next();
            log.add(new RecordedRequest(receivedAt, request, fault, authorization));
            answer(exchange, visit, request, fault);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            visit.leave();
            exchange.close();
        }
    }

    private void answer(HttpExchange exchange, SlotGate.Visit visit, SimulatedRequest request, Fault fault)
            throws IOException, InterruptedException {
        switch (fault) {
            case RATE_LIMITED -> {
                exchange.getResponseHeaders().add("Retry-After", Integer.toString(config.retryAfterSeconds()));
                send(exchange, visit, 429, writer.error("rate_limit_error", "simulated rate limit"));
            }
            case SERVER_ERROR -> send(exchange, visit, 500, writer.error("server_error", "simulated internal error"));
            case UNAVAILABLE -> send(exchange, visit, 503, writer.error("server_error", "simulated overload"));
            case HANG -> Thread.sleep(config.hangMillis());
            default -> complete(exchange, visit, request, fault);
        }
    }

    private void complete(HttpExchange exchange, SlotGate.Visit visit, SimulatedRequest request, Fault fault)
            throws IOException, InterruptedException {
        Random random = new Random(config.seed() * 1_000_003L + sequence.incrementAndGet());
        SimulationContext context = new SimulationContext(random, config.oracle().map(o -> !o.gated() ? o
                : o.seenThrough(request.messages().stream().map(SimulatedMessage::content).collect(Collectors.joining("\n")))),
                config.errorInjector());
        List<String> choices;
        gate.acquireSlot();
        try {
            choices = choicesFor(request, context);
            int promptTokens = TokenEstimate.ofMessages(request.messages());
            int cachedTokens = Math.min(promptTokens, prefixCache.lookupAndAdd(request.messages()));
            int completionTokens = choices.stream().mapToInt(TokenEstimate::of).sum();
            tokens.add(promptTokens, cachedTokens, completionTokens);
            // Cached prompt tokens need no prefill: only the rest costs prompt-token latency.
            long sleep = config.latency().millisFor(promptTokens - cachedTokens, completionTokens, random);
            if (sleep > 0) {
                Thread.sleep(sleep);
            }
            String finishReason = "stop";
            if (fault == Fault.TRUNCATED_CONTENT) {
                choices = choices.stream().map(c -> c.substring(0, c.length() / 2)).toList();
                finishReason = "length";
            } else if (fault == Fault.EMPTY_CHOICES) {
                choices = List.of();
            }
            ObjectNode body = writer.completion(request.model(), choices, finishReason,
                    new TokenCounts(1, promptTokens, cachedTokens, completionTokens), sleep);
            if (fault == Fault.MALFORMED_JSON) {
                byte[] whole = json.writeValueAsBytes(body);
                sendRaw(exchange, visit, 200, Arrays.copyOf(whole, whole.length / 2));
            } else {
                send(exchange, visit, 200, body);
            }
        } finally {
            gate.releaseSlot();
        }
    }

    /** As many choices as the dialect serves: n when it supports n, else one. */
    private List<String> choicesFor(SimulatedRequest request, SimulationContext context) {
        int wanted = config.dialect().servesN() ? Math.max(1, request.n()) : 1;
        Responder responder = config.responders().getOrDefault(request.task(), fallback);
        List<String> answers = responder.respond(request, context)
                .filter(list -> !list.isEmpty())
                .or(() -> fallback.respond(request, context))
                .orElseThrow();
        List<String> choices = new ArrayList<>(wanted);
        for (int i = 0; i < wanted; i++) {
            choices.add(answers.get(i % answers.size()));
        }
        return config.freshDraws() ? draws.mark(choices) : choices;
    }

    private void send(HttpExchange exchange, SlotGate.Visit visit, int status, ObjectNode body) throws IOException {
        sendRaw(exchange, visit, status, json.writeValueAsBytes(body));
    }

    /** A request stops counting as in the server once its answer starts to go out: the client may send the next one as soon as it has read it. */
    private void sendRaw(HttpExchange exchange, SlotGate.Visit visit, int status, byte[] body) throws IOException {
        visit.leave();
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

}

package io.flowsql.llm;

import java.util.List;
import java.util.Objects;

/**
 * A chat-completion request. {@code stage} names the agent stage that asks (for per-stage model
 * choice, metering and the trace); it is not sent to the server. Null optional fields are omitted
 * from the wire request so the server's defaults apply.
 */
public record ChatRequest(
        String stage,
        String model,
        List<ChatMessage> messages,
        Double temperature,
        Double topP,
        Integer n,
        Integer maxTokens,
        Long seed,
        List<String> stop,
        boolean jsonResponse) {

    public ChatRequest {
        Objects.requireNonNull(stage, "stage");
        messages = List.copyOf(Objects.requireNonNull(messages, "messages"));
        stop = stop == null ? List.of() : List.copyOf(stop);
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("a chat request needs at least one message");
        }
    }

    /** A request with the server's defaults for everything but the messages. */
    public static ChatRequest of(String stage, List<ChatMessage> messages) {
        return new ChatRequest(stage, null, messages, null, null, null, null, null, null, false);
    }

    public ChatRequest withModel(String newModel) {
        return new ChatRequest(stage, newModel, messages, temperature, topP, n, maxTokens, seed, stop, jsonResponse);
    }

    public ChatRequest withSampling(Double newTemperature, Integer newN) {
        return new ChatRequest(stage, model, messages, newTemperature, topP, newN, maxTokens, seed, stop, jsonResponse);
    }

    public ChatRequest withJsonResponse(boolean json) {
        return new ChatRequest(stage, model, messages, temperature, topP, n, maxTokens, seed, stop, json);
    }

    public ChatRequest withMaxTokens(Integer newMaxTokens) {
        return new ChatRequest(stage, model, messages, temperature, topP, n, newMaxTokens, seed, stop, jsonResponse);
    }
}

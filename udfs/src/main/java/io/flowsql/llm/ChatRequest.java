package io.flowsql.llm;

import io.flowsql.config.llm.StructuredOutput;
import java.util.List;
import java.util.Objects;

/**
 * A chat-completion request. {@code stage} names the agent stage that asks (for per-stage model
 * choice, metering and the trace); it is not sent to the server. Null optional fields are omitted
 * from the wire request so the server's defaults apply. {@code reply} is the stage's declared reply
 * shape (null: free text), sent as the client's {@link StructuredOutput} setting says.
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
        boolean jsonResponse,
        ReplySchema reply) {

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
        return new ChatRequest(stage, null, messages, null, null, null, null, null, null, false, null);
    }

    public ChatRequest withModel(String newModel) {
        return new ChatRequest(stage, newModel, messages, temperature, topP, n, maxTokens, seed, stop, jsonResponse,
                reply);
    }

    public ChatRequest withSampling(Double newTemperature, Integer newN) {
        return new ChatRequest(stage, model, messages, newTemperature, topP, newN, maxTokens, seed, stop, jsonResponse,
                reply);
    }

    public ChatRequest withTopP(Double newTopP) {
        return new ChatRequest(stage, model, messages, temperature, newTopP, n, maxTokens, seed, stop, jsonResponse,
                reply);
    }

    public ChatRequest withJsonResponse(boolean json) {
        return new ChatRequest(stage, model, messages, temperature, topP, n, maxTokens, seed, stop, json, reply);
    }

    public ChatRequest withMaxTokens(Integer newMaxTokens) {
        return new ChatRequest(stage, model, messages, temperature, topP, n, newMaxTokens, seed, stop, jsonResponse,
                reply);
    }

    public ChatRequest withSeed(Long newSeed) {
        return new ChatRequest(stage, model, messages, temperature, topP, n, maxTokens, newSeed, stop, jsonResponse,
                reply);
    }

    public ChatRequest withMessages(List<ChatMessage> newMessages) {
        return new ChatRequest(stage, model, newMessages, temperature, topP, n, maxTokens, seed, stop, jsonResponse,
                reply);
    }

    /**
     * The stage's reply shape (null: free text). Its {@code x-max-tokens} is the stage's default reply budget,
     * below the client's per-stage configuration and an explicit {@link #withMaxTokens}.
     */
    public ChatRequest withReply(ReplySchema schema) {
        return new ChatRequest(stage, model, messages, temperature, topP, n, maxTokens, seed, stop, jsonResponse,
                schema);
    }
}

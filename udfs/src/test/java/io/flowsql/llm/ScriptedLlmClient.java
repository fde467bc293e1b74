package io.flowsql.llm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * An in-memory model for agent unit tests: answers each request from a script and records every
 * request it was asked. Only agent unit tests use it; everything that talks HTTP uses the simulator.
 */
public final class ScriptedLlmClient implements LlmClient {
    private final Function<ChatRequest, ChatResponse> script;
    private final List<ChatRequest> requests = Collections.synchronizedList(new ArrayList<>());

    private ScriptedLlmClient(Function<ChatRequest, List<String>> choices) {
        this.script = r -> new ChatResponse(choices.apply(r), new TokenUsage(10, 10, false), "scripted", true, 0, 0, false);
    }

    private ScriptedLlmClient(Function<ChatRequest, ChatResponse> responses, boolean whole) {
        this.script = responses;
    }

    /** Answers with whatever response the function builds for the request (finish reasons and usage included). */
    public static ScriptedLlmClient replies(Function<ChatRequest, ChatResponse> responses) {
        return new ScriptedLlmClient(responses, true);
    }

    /** Answers every request with the same text. */
    public static ScriptedLlmClient alwaysResponds(String text) {
        return new ScriptedLlmClient(r -> List.of(text));
    }

    /** Answers with the given texts in turn, one per request; fails when the script runs out. */
    public static ScriptedLlmClient respondsInOrder(String... texts) {
        List<String> queue = Collections.synchronizedList(new ArrayList<>(List.of(texts)));
        return new ScriptedLlmClient(r -> {
            if (queue.isEmpty()) {
                throw new LlmException(LlmErrorKind.INVALID_REQUEST, "script exhausted at stage " + r.stage());
            }
            return List.of(queue.remove(0));
        });
    }

    /** Answers with whatever the function returns for the request (one or more choices). */
    public static ScriptedLlmClient responds(Function<ChatRequest, List<String>> script) {
        return new ScriptedLlmClient(script);
    }

    /** Fails every request with the given kind. */
    public static ScriptedLlmClient alwaysFails(LlmErrorKind kind) {
        return new ScriptedLlmClient(r -> {
            throw new LlmException(kind, "scripted failure");
        });
    }

    @Override
    public CompletableFuture<ChatResponse> chat(ChatRequest request) {
        requests.add(request);
        try {
            return CompletableFuture.completedFuture(script.apply(request));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    public List<ChatRequest> requests() {
        return List.copyOf(requests);
    }
}

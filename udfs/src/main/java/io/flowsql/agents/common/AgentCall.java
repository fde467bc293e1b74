package io.flowsql.agents.common;

import io.flowsql.llm.ChatMessage;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ChatResponse;
import io.flowsql.llm.LlmClient;
import io.flowsql.llm.LlmErrorKind;
import io.flowsql.llm.LlmException;
import io.flowsql.journal.JournaledCalls;
import io.flowsql.journal.StageJournal;
import io.flowsql.pipeline.StageTrace;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One agent's conversation with the model: send, parse strictly, and on unreadable output re-ask once
 * with the bad answer and a corrective message before failing with {@link LlmErrorKind#UNPARSEABLE_OUTPUT};
 * every call is metered into the stage's trace.
 */
public final class AgentCall {
    private static final String REASK_RESOURCE = "prompts/common/reask.user.txt";

    private final JournaledCalls calls;
    private final String reaskMessage;

    public AgentCall(LlmClient llm) {
        this(llm, StageJournal.NONE);
    }

    /** Calls journaled in {@code journal} (see {@link JournaledCalls}): a call the journal holds is not made again. */
    public AgentCall(LlmClient llm, StageJournal journal) {
        this(new JournaledCalls(Objects.requireNonNull(llm, "llm"), journal), PromptTemplate.load(REASK_RESOURCE));
    }

    public AgentCall(LlmClient llm, PromptTemplate reask) {
        this(new JournaledCalls(Objects.requireNonNull(llm, "llm"), StageJournal.NONE), reask);
    }

    private AgentCall(JournaledCalls calls, PromptTemplate reask) {
        this.calls = calls;
        this.reaskMessage = reask.render(Map.of());
    }

    /** The first choice, parsed; re-asked once when it cannot be parsed. */
    public <T> CompletableFuture<T> ask(ChatRequest request, Function<String, Optional<T>> parser, StageTrace trace) {
        return send(request, trace).thenCompose(first -> {
            Optional<T> parsed = tryParse(parser, first.text());
            if (parsed.isPresent()) {
                return CompletableFuture.completedFuture(parsed.get());
            }
            return send(reask(request.withSampling(request.temperature(), null), first.text()), trace)
                    .thenApply(second -> tryParse(parser, second.text())
                            .orElseThrow(() -> unparseable(request, second.text())));
        });
    }

    /**
     * All parseable choices of an n-sample request (n as set on the request); when none can be parsed the
     * request is re-asked once, and fails when the second answer has none either.
     */
    public <T> CompletableFuture<List<T>> askSamples(ChatRequest request, Function<String, Optional<T>> parser,
                                                     StageTrace trace) {
        return send(request, trace).thenCompose(first -> {
            List<T> parsed = parseAll(parser, first.choices());
            if (!parsed.isEmpty()) {
                return CompletableFuture.completedFuture(parsed);
            }
            return send(reask(request, first.text()), trace).thenApply(second -> {
                List<T> again = parseAll(parser, second.choices());
                if (again.isEmpty()) {
                    throw unparseable(request, second.text());
                }
                return again;
            });
        });
    }

    private CompletableFuture<ChatResponse> send(ChatRequest request, StageTrace trace) {
        return calls.chat(request, trace == null ? null : trace.journalScope()).thenApply(reply -> {
            record(trace, reply);
            return reply.response();
        });
    }

    private ChatRequest reask(ChatRequest request, String badAnswer) {
        List<ChatMessage> messages = new ArrayList<>(request.messages());
        messages.add(ChatMessage.assistant(badAnswer));
        messages.add(ChatMessage.user(reaskMessage));
        return new ChatRequest(request.stage(), request.model(), messages, request.temperature(), request.topP(),
                request.n(), request.maxTokens(), request.seed(), request.stop(), request.jsonResponse());
    }

    private static void record(StageTrace trace, JournaledCalls.Reply reply) {
        if (trace == null) {
            return;
        }
        ChatResponse response = reply.response();
        synchronized (trace) {
            if (reply.lookup() == JournaledCalls.Lookup.HIT) {
                trace.journalHits++;
                trace.tokensSaved += response.usage().totalTokens();
                trace.model = response.model();
                trace.simulated |= response.simulated();
                return;
            }
            if (reply.lookup() == JournaledCalls.Lookup.MISS) {
                trace.journalMisses++;
            }
            trace.llmCalls++;
            trace.promptTokens += response.usage().promptTokens();
            trace.completionTokens += response.usage().completionTokens();
            trace.retries += response.retries();
            trace.latencyMillis += response.latencyMillis();
            trace.model = response.model();
            trace.simulated |= response.simulated();
        }
    }

    private static <T> Optional<T> tryParse(Function<String, Optional<T>> parser, String text) {
        try {
            Optional<T> result = parser.apply(text);
            return result == null ? Optional.empty() : result;
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static <T> List<T> parseAll(Function<String, Optional<T>> parser, List<String> choices) {
        List<T> parsed = new ArrayList<>();
        for (String choice : choices) {
            tryParse(parser, choice).ifPresent(parsed::add);
        }
        return parsed;
    }

    private static LlmException unparseable(ChatRequest request, String lastAnswer) {
        String shown = lastAnswer.length() > 200 ? lastAnswer.substring(0, 200) + "..." : lastAnswer;
        return new LlmException(LlmErrorKind.UNPARSEABLE_OUTPUT,
                "stage " + request.stage() + " answered twice in an unreadable format; last answer: " + shown);
    }
}

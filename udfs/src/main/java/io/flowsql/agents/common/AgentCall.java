package io.flowsql.agents.common;

import io.flowsql.llm.ChatMessage;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ChatResponse;
import io.flowsql.llm.LlmClient;
import io.flowsql.llm.LlmErrorKind;
import io.flowsql.llm.LlmException;
import io.flowsql.journal.JournaledCalls;
import io.flowsql.journal.StageJournal;
import io.flowsql.pipeline.Cancellation;
import io.flowsql.pipeline.KnowledgeInPrompts;
import io.flowsql.pipeline.StageTrace;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * One agent's conversation with the model: send, parse strictly, and on unreadable output re-ask once
 * with the bad answer and a corrective message before failing with {@link LlmErrorKind#UNPARSEABLE_OUTPUT};
 * every call is metered into the stage's trace.
 */
public final class AgentCall {
    private static final String REASK_RESOURCE = "prompts/common/reask.user.txt";

    /** The least budget a re-ask after a cut reply gets. */
    private static final int MIN_REASK_BUDGET = 256;

    private final JournaledCalls calls;
    private final String reaskMessage;
    private final StageSampling sampling;

    public AgentCall(LlmClient llm) {
        this(llm, StageJournal.NONE);
    }

    /** Calls journaled in {@code journal} (see {@link JournaledCalls}): a call the journal holds is not made again. */
    public AgentCall(LlmClient llm, StageJournal journal) {
        this(new JournaledCalls(Objects.requireNonNull(llm, "llm"), journal), PromptTemplate.load(REASK_RESOURCE));
    }

    /**
     * As {@link #AgentCall(LlmClient, StageJournal)}, and every reply resumes on {@code continuation} (the engine's
     * callback pool), never on the journal's single acknowledgement thread; agents move SQL from there to the stage's
     * work pool ({@link io.flowsql.pipeline.StageSql#offload}).
     */
    public AgentCall(LlmClient llm, StageJournal journal, Executor continuation) {
        this(new JournaledCalls(Objects.requireNonNull(llm, "llm"), journal, continuation),
                PromptTemplate.load(REASK_RESOURCE));
    }

    public AgentCall(LlmClient llm, PromptTemplate reask) {
        this(new JournaledCalls(Objects.requireNonNull(llm, "llm"), StageJournal.NONE), reask);
    }

    private AgentCall(JournaledCalls calls, PromptTemplate reask) {
        this(calls, reask.render(PromptFields.none()), StageSampling.none());
    }

    private AgentCall(JournaledCalls calls, String reaskMessage, StageSampling sampling) {
        this.calls = calls;
        this.reaskMessage = reaskMessage;
        this.sampling = Objects.requireNonNull(sampling, "sampling");
    }

    /** The same conversation, every request sent with the temperature and top_p {@code stageSampling} decides. */
    public AgentCall withSampling(StageSampling stageSampling) {
        return new AgentCall(calls, reaskMessage, stageSampling);
    }

    /**
     * The first choice, parsed; re-asked once when it cannot be parsed, or with twice the reply budget when it was
     * cut at max_tokens (finish_reason "length"): a cut reply is never parsed as if it were whole.
     */
    public <T> CompletableFuture<T> ask(ChatRequest request, Function<String, Optional<T>> parser, StageTrace trace) {
        return send(request, trace).thenCompose(first -> {
            if (first.truncated(0)) {
                ChatRequest larger = request.withSampling(request.temperature(), null)
                        .withMaxTokens(largerBudget(request, first));
                return send(larger, trace).thenApply(second -> {
                    if (second.truncated(0)) {
                        countTruncated(trace, 1);
                        throw truncated(larger, second);
                    }
                    return tryParse(parser, second.text()).orElseThrow(() -> unparseable(request, second.text()));
                });
            }
            Optional<T> parsed = tryParse(parser, first.text());
            if (parsed.isPresent()) {
                return CompletableFuture.completedFuture(parsed.get());
            }
            return send(reask(request.withSampling(request.temperature(), null), first.text()), trace)
                    .thenApply(second -> {
                        if (second.truncated(0)) {
                            countTruncated(trace, 1);
                            throw truncated(request, second);
                        }
                        return tryParse(parser, second.text()).orElseThrow(() -> unparseable(request, second.text()));
                    });
        });
    }

    /**
     * All parseable, whole choices of an n-sample request (n as set on the request). Choices cut at max_tokens are
     * asked for again once, as many as were cut, with twice the budget; those still cut are counted in the trace
     * ({@link StageTrace#truncatedReplies}, the stage's {@code truncatedReplies} metric), never dropped silently. When no
     * choice is readable and none was cut, the request is re-asked once; it fails when nothing readable comes back.
     */
    public <T> CompletableFuture<List<T>> askSamples(ChatRequest request, Function<String, Optional<T>> parser,
                                                     StageTrace trace) {
        return send(request, trace).thenCompose(first -> {
            List<T> parsed = parseAll(parser, first);
            int cut = truncatedCount(first);
            if (cut > 0) {
                ChatRequest again = request.withSampling(request.temperature(), request.n() == null ? null : cut)
                        .withMaxTokens(largerBudget(request, first));
                return send(again, trace).thenApply(second -> {
                    parsed.addAll(parseAll(parser, second));
                    int stillCut = truncatedCount(second);
                    countTruncated(trace, stillCut);
                    if (parsed.isEmpty()) {
                        throw stillCut > 0 ? truncated(again, second) : unparseable(request, second.text());
                    }
                    return parsed;
                });
            }
            if (!parsed.isEmpty()) {
                return CompletableFuture.completedFuture(parsed);
            }
            return send(reask(request, first.text()), trace).thenApply(second -> {
                List<T> secondParsed = parseAll(parser, second);
                if (secondParsed.isEmpty()) {
                    int stillCut = truncatedCount(second);
                    countTruncated(trace, stillCut);
                    throw stillCut > 0 ? truncated(request, second) : unparseable(request, second.text());
                }
                return secondParsed;
            });
        });
    }

    /** Twice what the cut reply used (the budget it was cut at), at least twice the request's own budget. */
    private static int largerBudget(ChatRequest request, ChatResponse cut) {
        int perChoice = cut.usage().completionTokens() / Math.max(1, cut.choices().size());
        int used = Math.max(perChoice, request.maxTokens() == null ? 0 : request.maxTokens());
        return Math.max(2 * used, MIN_REASK_BUDGET);
    }

    private static int truncatedCount(ChatResponse response) {
        int cut = 0;
        for (int i = 0; i < response.choices().size(); i++) {
            if (response.truncated(i)) {
                cut++;
            }
        }
        return cut;
    }

    /** Replies still cut at max_tokens after the larger budget: traced and metered, never silently dropped. */
    private static void countTruncated(StageTrace trace, int replies) {
        if (trace == null || replies == 0) {
            return;
        }
        synchronized (trace) {
            trace.truncatedReplies += replies;
        }
    }

    private CompletableFuture<ChatResponse> send(ChatRequest unsampled, StageTrace trace) {
        ChatRequest request = sampling.apply(unsampled);
        KnowledgeInPrompts.record(trace, request.messages());
        long sentAt = System.currentTimeMillis();
        CompletableFuture<JournaledCalls.Reply> call = calls.chat(request, trace == null ? null : trace.journalScope());
        Cancellation cancellation = trace == null ? null : trace.cancellation;
        if (cancellation != null) {
            // the stage's timeout cancels the call: the client aborts the HTTP request and frees its permit
            cancellation.onCancel(() -> call.cancel(false));
        }
        return call.handle((reply, error) -> {
            if (error != null) {
                LlmException failure = error instanceof LlmException typed ? typed
                        : error.getCause() instanceof LlmException cause ? cause : null;
                recordFailure(trace, failure, error, sentAt);
                throw error instanceof java.util.concurrent.CompletionException c ? c
                        : new java.util.concurrent.CompletionException(error);
            }
            record(trace, reply, sentAt);
            return reply.response();
        });
    }

    private ChatRequest reask(ChatRequest request, String badAnswer) {
        List<ChatMessage> messages = new ArrayList<>(request.messages());
        messages.add(ChatMessage.assistant(badAnswer));
        messages.add(ChatMessage.user(reaskMessage));
        return request.withMessages(messages);
    }

    private static void record(StageTrace trace, JournaledCalls.Reply reply, long sentAt) {
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
            trace.countCall(sentAt, System.currentTimeMillis() - sentAt);
            trace.promptTokens += response.usage().promptTokens();
            trace.cachedPromptTokens += response.usage().cachedPromptTokens();
            trace.completionTokens += response.usage().completionTokens();
            trace.retries += response.retries();
            trace.latencyMillis += response.latencyMillis();
            trace.model = response.model();
            trace.simulated |= response.simulated();
        }
    }

    /** A failed call still counts: one call, its extra attempts as retries, and its reason. */
    private static void recordFailure(StageTrace trace, LlmException failure, Throwable error, long sentAt) {
        if (trace == null) {
            return;
        }
        synchronized (trace) {
            trace.countCall(sentAt, System.currentTimeMillis() - sentAt);
            if (failure != null) {
                trace.retries += Math.max(0, failure.attempts() - 1);
                trace.error = failure.getMessage();
            } else {
                trace.error = String.valueOf(error);
            }
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

    /** The choices that were not cut at max_tokens and parse. */
    private static <T> List<T> parseAll(Function<String, Optional<T>> parser, ChatResponse response) {
        List<T> parsed = new ArrayList<>();
        for (int i = 0; i < response.choices().size(); i++) {
            if (!response.truncated(i)) {
                tryParse(parser, response.choices().get(i)).ifPresent(parsed::add);
            }
        }
        return parsed;
    }

    private static LlmException truncated(ChatRequest request, ChatResponse response) {
        return new LlmException(LlmErrorKind.TRUNCATED_OUTPUT, "stage " + request.stage() + ": the reply was cut at "
                + "max_tokens (finish_reason: length) after " + response.usage().completionTokens()
                + " tokens, also with a larger budget; raise llm.max-tokens." + request.stage());
    }

    private static LlmException unparseable(ChatRequest request, String lastAnswer) {
        String shown = lastAnswer.length() > 200 ? lastAnswer.substring(0, 200) + "..." : lastAnswer;
        return new LlmException(LlmErrorKind.UNPARSEABLE_OUTPUT,
                "stage " + request.stage() + " answered twice in an unreadable format; last answer: " + shown);
    }
}

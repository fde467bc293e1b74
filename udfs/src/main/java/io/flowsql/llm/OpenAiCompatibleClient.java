package io.flowsql.llm;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.DefaultAsyncHttpClientConfig;
import org.asynchttpclient.Dsl;

/**
 * The LLM client the engine uses against vLLM, Ollama, llama.cpp, OpenAI or the project's simulator:
 * resolves the stage's model, keeps to the rate limits and concurrency bound, retries transient
 * failures within the call's budget, makes extra calls when a server serves fewer than n choices,
 * and meters what each call cost.
 */
public final class OpenAiCompatibleClient implements LlmClient {
    private final LlmClientConfig config;
    private final UsageMeter meter;
    private final Executor callbacks;
    private final AsyncHttpClient http;
    private final ScheduledExecutorService scheduler;
    private final HttpAttempt attempt;
    private final RetryLoop retries;
    private final LocalRateLimiter limiter;
    private final TokenEstimator tokens;
    /** Most choices one request may ask for; lowered when the server refuses n (llama.cpp: --parallel). */
    private final java.util.concurrent.atomic.AtomicInteger maxChoicesPerCall =
            new java.util.concurrent.atomic.AtomicInteger(Integer.MAX_VALUE);
    /** Set when, in AUTO mode, the server refused the structured reply format: replies are plain text after. */
    private volatile boolean structuredRefused;

    /** A reply needs at least this many tokens of context (or its whole budget when smaller). */
    private static final int MIN_REPLY_TOKENS = 64;
    /** A refusal that names the n field (llama.cpp: "Field 'n': Value must be between 1 <= value <= 4"). */
    private static final java.util.regex.Pattern N_REFUSED = java.util.regex.Pattern.compile(
            "(?i)(field\\s+'n'|\"n\"|'n'|n_cmpl|\\bn\\b\\s*(must|should|>|<|=)|number of choices|\\bn\\b is)");
    private static final java.util.regex.Pattern N_LIMIT = java.util.regex.Pattern.compile("<=?\\s*(\\d+)\\b(?!.*<=)");
    /** A refusal of the structured reply format. */
    private static final java.util.regex.Pattern FORMAT_REFUSED = java.util.regex.Pattern.compile(
            "(?i)response_format|json_schema|grammar|schema");

    private OpenAiCompatibleClient(Builder builder) {
        this.config = builder.config;
        this.meter = builder.meter;
        this.callbacks = builder.callbacks;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "flowsql-llm-timer");
            thread.setDaemon(true);
            return thread;
        });
        // No per-host connection cap in async-http-client: AsyncPermits already bounds the calls in flight,
        // and AHC's cap blocks the calling thread (often the Netty event loop, when a timed-out call's
        // permit passes to the next waiter) until a closing channel frees its slot: the event loop then
        // stalls for the whole acquire timeout and every pending request timeout fires that much late.
        this.http = Dsl.asyncHttpClient(new DefaultAsyncHttpClientConfig.Builder()
                .setConnectTimeout(config.connectTimeout())
                .setRequestTimeout(config.callTimeout())
                .setReadTimeout(config.callTimeout())
                .setMaxRequestRetry(0)
                .setKeepAlive(true)
                .setThreadPoolName("flowsql-llm-http")
                .setShutdownQuietPeriod(Duration.ZERO)
                .setShutdownTimeout(Duration.ofSeconds(1))
                .build());
        ObjectMapper json = new ObjectMapper();
        this.attempt = new HttpAttempt(http, config, new ChatWireEncoder(json, config.structuredOutput()),
                new ChatWireDecoder(json), scheduler);
        this.retries = new RetryLoop(config.maxAttempts(), config.retryWindow(),
                new BackoffPolicy(config.initialBackoff(), config.maxBackoff(), config.maxRetryAfter()), scheduler);
        this.limiter = new LocalRateLimiter(config.requestsPerMinute(), config.tokensPerMinute(), config.rateBurst(),
                scheduler);
        this.tokens = builder.tokens;
    }

    public static Builder builder(LlmClientConfig config) {
        return new Builder(config);
    }

    public UsageMeter meter() {
        return meter;
    }

    public LlmClientConfig config() {
        return config;
    }

    @Override
    public CompletableFuture<ChatResponse> chat(ChatRequest request) {
        long start = System.nanoTime();
        long deadline = start + config.totalBudget().toNanos();
        int wanted = request.n() == null ? 1 : Math.max(1, request.n());
        ChatRequest resolved;
        try {
            resolved = fitToContext(request.withModel(config.modelFor(request)).withMaxTokens(
                    positiveOrNull(config.maxTokensFor(request))));
        } catch (LlmException tooLong) {
            meter.record(new UsageRecord(request.stage(), config.modelFor(request), TokenUsage.NONE, 0, 0,
                    tooLong.kind()));
            CompletableFuture<ChatResponse> failed = new CompletableFuture<>();
            callbacks.execute(() -> failed.completeExceptionally(tooLong));
            return failed;
        }
        CompletableFuture<ChatResponse> out = new CompletableFuture<>();
        Accumulator acc = new Accumulator();
        CallControl control = new CallControl();
        // a caller cancelling the returned future (its stage timed out) aborts what is in flight and frees its permit
        out.whenComplete((ignored, error) -> {
            if (out.isCancelled()) {
                control.cancel();
            }
        });
        collect(resolved, wanted, acc, 0, deadline, control).whenComplete((ignored, error) -> {
            try {
                finish(request.stage(), resolved.model(), wanted, acc, start, error, out);
            } catch (RuntimeException bug) {
                callbacks.execute(() -> out.completeExceptionally(bug));
            }
        });
        return out;
    }

    /**
     * Checks the prompt against the configured context (llm.context-tokens): fails at once when it leaves no
     * room for a reply, and lowers max_tokens to what is left when the budget would not fit.
     */
    private ChatRequest fitToContext(ChatRequest request) {
        int context = config.contextTokens();
        if (context <= 0) {
            return request;
        }
        int prompt = tokens.countMessages(request.messages());
        int budget = request.maxTokens() == null ? 0 : request.maxTokens();
        int least = budget > 0 ? Math.min(budget, MIN_REPLY_TOKENS) : MIN_REPLY_TOKENS;
        if (prompt + least > context) {
            throw new LlmException(LlmErrorKind.CONTEXT_OVERFLOW, "stage " + request.stage() + ": the prompt of about "
                    + prompt + " tokens leaves no room for a reply in the configured context of " + context
                    + " tokens (llm.context-tokens); nothing was sent", 0, null);
        }
        return budget > 0 && prompt + budget > context ? request.withMaxTokens(context - prompt) : request;
    }

    private static Integer positiveOrNull(int value) {
        return value > 0 ? value : null;
    }

    /** Meters the call and completes the caller's future off the HTTP event loop. */
    private void finish(String stage, String model, int wanted, Accumulator acc, long start, Throwable error,
            CompletableFuture<ChatResponse> out) {
        long latency = (System.nanoTime() - start) / 1_000_000;
        if (error == null) {
            int kept = Math.min(wanted, acc.choices.size());
            ChatResponse response = new ChatResponse(acc.choices.subList(0, kept), acc.usage, acc.model,
                    acc.simulated, latency, acc.retries, false, acc.finishReasons.subList(0, kept));
            meter.record(new UsageRecord(stage, model, acc.usage, acc.retries, latency, null));
            callbacks.execute(() -> out.complete(response));
        } else {
            LlmException failure = FailureClassifier.ofThrowable(error);
            int retried = acc.retries + Math.max(0, failure.attempts() - 1);
            meter.record(new UsageRecord(stage, model, acc.usage, retried, latency, failure.kind()));
            LlmException reported = new LlmException(failure.kind(), failure.detail(), acc.attempts + failure.attempts(),
                    failure);
            callbacks.execute(() -> out.completeExceptionally(reported));
        }
    }

    /**
     * Calls until n choices are in hand: one call where the server serves n, several where it serves fewer
     * or refuses n above its limit (llama.cpp: n up to --parallel), which is then remembered.
     */
    private CompletableFuture<Accumulator> collect(ChatRequest resolved, int wanted, Accumulator acc, int callIndex,
            long deadline, CallControl control) {
        int missing = wanted - acc.choices.size();
        ChatRequest call = callIndex == 0 ? resolved : followUp(resolved, callIndex);
        return send(call, Math.min(missing, maxChoicesPerCall.get()), acc, deadline, control).thenCompose(ignored -> {
            if (acc.choices.size() >= wanted || callIndex + 1 >= wanted) {
                return CompletableFuture.completedFuture(acc);
            }
            return collect(resolved, wanted, acc, callIndex + 1, deadline, control);
        });
    }

    /** One call (retried on transient failures) for {@code n} choices; adapts n and the reply format when refused. */
    private CompletableFuture<Void> send(ChatRequest call, int n, Accumulator acc, long deadline, CallControl control) {
        ChatRequest thisCall = (structuredRefused && call.reply() != null ? call.withReply(null) : call)
                .withSampling(call.temperature(), call.n() == null ? null : n);
        long promptEstimate = config.tokensPerMinute() > 0 ? tokens.countMessages(thisCall.messages()) : 0;
        return retries.run(() -> control.isCancelled()
                        ? CompletableFuture.<WireCompletion>failedFuture(CallControl.cancelledFailure())
                        : limiter.acquire(promptEstimate, deadline).thenCompose(ok -> attempt.send(thisCall, deadline, control)),
                        deadline)
                .handle((retried, error) -> {
                    if (error == null) {
                        WireCompletion completion = retried.value();
                        TokenUsage usage = completion.reportedUsage()
                                .orElseGet(() -> tokens.estimate(thisCall.messages(), completion.choices()))
                                .withCached(completion.cachedPromptTokens());
                        limiter.charge(usage.totalTokens() - promptEstimate);
                        acc.add(completion, usage, retried.attempts());
                        return CompletableFuture.<Void>completedFuture(null);
                    }
                    LlmException failure = FailureClassifier.ofThrowable(error);
                    if (failure.kind() == LlmErrorKind.INVALID_REQUEST && n > 1 && N_REFUSED.matcher(failure.detail()).find()) {
                        maxChoicesPerCall.set(Math.max(1, Math.min(n - 1, limitIn(failure.detail()))));
                        acc.failedAttempts(failure.attempts());
                        return send(call, Math.min(n, maxChoicesPerCall.get()), acc, deadline, control);
                    }
                    if (failure.kind() == LlmErrorKind.INVALID_REQUEST && thisCall.reply() != null
                            && config.structuredOutput() == StructuredOutput.AUTO
                            && FORMAT_REFUSED.matcher(failure.detail()).find()) {
                        structuredRefused = true;
                        acc.failedAttempts(failure.attempts());
                        return send(call, n, acc, deadline, control);
                    }
                    return CompletableFuture.<Void>failedFuture(failure);
                })
                .thenCompose(next -> next);
    }

    /** The largest n a refusal names ("... 1 <= value <= 4 ..."), else 1. */
    private static int limitIn(String message) {
        java.util.regex.Matcher m = N_LIMIT.matcher(message);
        return m.find() ? Integer.parseInt(m.group(1)) : 1;
    }

    /** The request for the missing choices; a fixed seed is shifted so the extra samples differ. */
    private static ChatRequest followUp(ChatRequest resolved, int callIndex) {
        return resolved.seed() == null ? resolved : resolved.withSeed(resolved.seed() + callIndex);
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        try {
            http.close();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        try {
            scheduler.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Choices, usage, attempts and retries gathered over the calls of one request. */
    private static final class Accumulator {
        final List<String> choices = new ArrayList<>();
        final List<String> finishReasons = new ArrayList<>();
        TokenUsage usage = TokenUsage.NONE;
        int attempts;
        int retries;
        String model;
        boolean simulated;

        synchronized void add(WireCompletion completion, TokenUsage callUsage, int callAttempts) {
            choices.addAll(completion.choices());
            finishReasons.addAll(completion.finishReasons());
            usage = usage.plus(callUsage);
            attempts += callAttempts;
            retries += callAttempts - 1;
            model = completion.model();
            simulated = simulated || completion.simulated();
        }

        /** Attempts refused before the client adapted the request (n, reply format): they count as retries. */
        synchronized void failedAttempts(int count) {
            attempts += count;
            retries += count;
        }
    }

    /** Builds a client; the meter and the executor that completes callers' futures may be shared. */
    public static final class Builder {
        private final LlmClientConfig config;
        private UsageMeter meter = new UsageMeter();
        private Executor callbacks = ForkJoinPool.commonPool();
        private TokenEstimator tokens;

        private Builder(LlmClientConfig config) {
            this.config = Objects.requireNonNull(config, "config");
        }

        public Builder meter(UsageMeter value) { this.meter = Objects.requireNonNull(value); return this; }
        /** Where callers' continuations run (default the common pool, never the HTTP event loop). */
        public Builder callbackExecutor(Executor value) { this.callbacks = Objects.requireNonNull(value); return this; }
        public Builder tokenEstimator(TokenEstimator value) { this.tokens = Objects.requireNonNull(value); return this; }

        public OpenAiCompatibleClient build() {
            if (tokens == null) {
                tokens = new TokenEstimator();
            }
            return new OpenAiCompatibleClient(this);
        }
    }
}

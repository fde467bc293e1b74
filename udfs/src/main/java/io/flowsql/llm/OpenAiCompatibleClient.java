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
        this.attempt = new HttpAttempt(http, config, new ChatWireEncoder(json), new ChatWireDecoder(json), scheduler);
        this.retries = new RetryLoop(config.maxAttempts(),
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
        ChatRequest resolved = request.withModel(config.modelFor(request));
        int wanted = request.n() == null ? 1 : Math.max(1, request.n());
        CompletableFuture<ChatResponse> out = new CompletableFuture<>();
        Accumulator acc = new Accumulator();
        collect(resolved, wanted, acc, 0, deadline).whenComplete((ignored, error) -> {
            try {
                finish(request.stage(), resolved.model(), wanted, acc, start, error, out);
            } catch (RuntimeException bug) {
                callbacks.execute(() -> out.completeExceptionally(bug));
            }
        });
        return out;
    }

    /** Meters the call and completes the caller's future off the HTTP event loop. */
    private void finish(String stage, String model, int wanted, Accumulator acc, long start, Throwable error,
            CompletableFuture<ChatResponse> out) {
        long latency = (System.nanoTime() - start) / 1_000_000;
        if (error == null) {
            ChatResponse response = new ChatResponse(acc.choices.subList(0, Math.min(wanted, acc.choices.size())),
                    acc.usage, acc.model, acc.simulated, latency, acc.retries, false);
            meter.record(new UsageRecord(stage, model, acc.usage, acc.retries, latency, null));
            callbacks.execute(() -> out.complete(response));
        } else {
            LlmException failure = FailureClassifier.ofThrowable(error);
            int retried = acc.retries + Math.max(0, failure.attempts() - 1);
            meter.record(new UsageRecord(stage, model, acc.usage, retried, latency, failure.kind()));
            callbacks.execute(() -> out.completeExceptionally(failure));
        }
    }

    /** Calls until n choices are in hand: one call where the server serves n, up to n where it serves one. */
    private CompletableFuture<Accumulator> collect(ChatRequest resolved, int wanted, Accumulator acc, int callIndex,
            long deadline) {
        int missing = wanted - acc.choices.size();
        ChatRequest thisCall = callIndex == 0 ? resolved : followUp(resolved, missing, callIndex);
        long promptEstimate = config.tokensPerMinute() > 0 ? tokens.countMessages(thisCall.messages()) : 0;
        return retries.run(() -> limiter.acquire(promptEstimate, deadline)
                        .thenCompose(ok -> attempt.send(thisCall, deadline)), deadline)
                .thenCompose(retried -> {
                    WireCompletion completion = retried.value();
                    TokenUsage usage = completion.reportedUsage()
                            .orElseGet(() -> tokens.estimate(thisCall.messages(), completion.choices()))
                            .withCached(completion.cachedPromptTokens());
                    limiter.charge(usage.totalTokens() - promptEstimate);
                    acc.add(completion, usage, retried.attempts() - 1);
                    if (acc.choices.size() >= wanted || callIndex + 1 >= wanted) {
                        return CompletableFuture.completedFuture(acc);
                    }
                    return collect(resolved, wanted, acc, callIndex + 1, deadline);
                });
    }

    /** The request for the missing choices; a fixed seed is shifted so the extra samples differ. */
    private static ChatRequest followUp(ChatRequest resolved, int missing, int callIndex) {
        Long seed = resolved.seed() == null ? null : resolved.seed() + callIndex;
        return new ChatRequest(resolved.stage(), resolved.model(), resolved.messages(), resolved.temperature(),
                resolved.topP(), missing, resolved.maxTokens(), seed, resolved.stop(), resolved.jsonResponse());
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

    /** Choices, usage and retries gathered over the calls of one request. */
    private static final class Accumulator {
        final List<String> choices = new ArrayList<>();
        TokenUsage usage = TokenUsage.NONE;
        int retries;
        String model;
        boolean simulated;

        synchronized void add(WireCompletion completion, TokenUsage callUsage, int callRetries) {
            choices.addAll(completion.choices());
            usage = usage.plus(callUsage);
            retries += callRetries;
            model = completion.model();
            simulated = simulated || completion.simulated();
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

package io.flowsql.llm;

import io.flowsql.config.llm.StructuredOutput;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import dev.failsafe.Timeout;
import dev.failsafe.spi.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.DefaultAsyncHttpClientConfig;
import org.asynchttpclient.Dsl;

/**
 * The LLM client the engine uses against vLLM, Ollama, llama.cpp, OpenAI or the project's simulator:
 * resolves the stage's model, keeps to the rate limits and concurrency bound, retries transient
 * failures within the call's budget (Failsafe: {@link CallPolicies}, {@link AttemptGate}), makes extra calls when a
 * server serves fewer than n choices, and meters what each call cost.
 *
 * <p>Call path: {@link #chat} → {@link #send} → (Failsafe: budget timeout, retry policy, {@link AttemptGate}, attempt
 * timeout) → {@link ChatExchange#get} → async-http-client {@code execute()}.
 */
public final class OpenAiCompatibleClient implements LlmClient {
    private final LlmClientConfig config;
    private final UsageMeter meter;
    private final Executor callbacks;
    private final AsyncHttpClient http;
    private final ScheduledExecutorService timer;
    private final Scheduler failsafeScheduler;
    private final ChatExchange.Endpoint endpoint;
    private final RetryPolicy<WireCompletion> retryPolicy;
    private final AttemptGate.Limits limits;
    private final LocalRateLimiter limiter;
    private final TokenEstimator tokens;
    /** Most choices one request may ask for; lowered when the server refuses n (llama.cpp: --parallel). */
    private final AtomicInteger maxChoicesPerCall = new AtomicInteger(Integer.MAX_VALUE);
    /** Set when, in AUTO mode, the server refused the structured reply format: replies are plain text after. */
    private volatile boolean structuredRefused;

    /** A reply needs at least this many tokens of context (or its whole budget when smaller). */
    private static final int MIN_REPLY_TOKENS = 64;
    /** A refusal that names the n field (llama.cpp: "Field 'n': Value must be between 1 <= value <= 4"). */
    private static final Pattern N_REFUSED = Pattern.compile(
            "(?i)(field\\s+'n'|\"n\"|'n'|n_cmpl|\\bn\\b\\s*(must|should|>|<|=)|number of choices|\\bn\\b is)");
    private static final Pattern N_LIMIT = Pattern.compile("<=?\\s*(\\d+)\\b(?!.*<=)");
    /** A refusal of the structured reply format. */
    private static final Pattern FORMAT_REFUSED = Pattern.compile("(?i)response_format|json_schema|grammar|schema");

    private OpenAiCompatibleClient(Builder builder) {
        this.config = builder.config;
        this.meter = builder.meter;
        this.callbacks = builder.callbacks;
        this.tokens = builder.tokens;
        ScheduledThreadPoolExecutor timerThread = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "flowsql-llm-timer");
            thread.setDaemon(true);
            return thread;
        });
        // every call schedules its budget and attempt timeouts and cancels them when it ends: drop them at once
        // instead of keeping them queued until they would have fired (minutes, for every call of a busy client)
        timerThread.setRemoveOnCancelPolicy(true);
        this.timer = timerThread;
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
        this.endpoint = ChatExchange.Endpoint.of(http, config.baseUrl(),
                config.apiKey() == null ? null : "Bearer " + config.apiKey(),
                new ChatWireEncoder(json, config.structuredOutput(), ReplyOverlay.parse(config.replyOverlay())), new ChatWireDecoder(json),
                new EmbeddingWire(json, config.embeddingEncoding()));
        this.failsafeScheduler = CallPolicies.scheduler(timer);
        this.retryPolicy = CallPolicies.retryPolicy(config);
        this.limiter = new LocalRateLimiter(config.requestsPerMinute(), config.tokensPerMinute(), config.rateBurst(),
                timer);
        this.limits = new AttemptGate.Limits(new AsyncPermits(config.maxConcurrency()), limiter, config.queueBudget(),
                config.retryWindow(), CallPolicies.attemptTimeout(config), timer);
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
        Call call = new Call(resolved, wanted, start + config.totalBudget().toNanos());
        // a caller cancelling the returned future (its stage timed out) aborts what is in flight and frees its permit
        out.whenComplete((ignored, error) -> {
            if (out.isCancelled()) {
                call.cancel();
            }
        });
        send(call, resolved, Math.min(wanted, maxChoicesPerCall.get())).whenComplete((ignored, error) -> {
            try {
                finish(request.stage(), resolved.model(), call, start, error, out);
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
    private void finish(String stage, String model, Call call, long start, Throwable error,
            CompletableFuture<ChatResponse> out) {
        long latency = (System.nanoTime() - start) / 1_000_000;
        if (error == null) {
            int kept = Math.min(call.wanted, call.choices.size());
            ChatResponse response = new ChatResponse(call.choices.subList(0, kept), call.usage, call.model,
                    call.simulated, latency, call.retries, false, call.finishReasons.subList(0, kept));
            meter.record(new UsageRecord(stage, model, call.usage, call.retries, latency, null));
            callbacks.execute(() -> out.complete(response));
        } else {
            LlmException failure = FailureClassifier.ofThrowable(error);
            int retried = call.retries + Math.max(0, failure.attempts() - 1);
            meter.record(new UsageRecord(stage, model, call.usage, retried, latency, failure.kind()));
            LlmException reported = new LlmException(failure.kind(), failure.detail(), call.attempts + failure.attempts(),
                    failure);
            callbacks.execute(() -> out.completeExceptionally(reported));
        }
    }

    /**
     * One exchange for {@code n} choices, its attempts run by Failsafe within the rest of the call's budget; then the
     * next exchange while choices are missing (a server that serves fewer than n), or the same one adapted when the
     * server refused n above its limit (llama.cpp: n up to --parallel, remembered) or the structured reply format.
     */
    private CompletableFuture<Void> send(Call call, ChatRequest request, int n) {
        ChatRequest thisCall = (structuredRefused && request.reply() != null ? request.withReply(null) : request)
                .withSampling(request.temperature(), request.n() == null ? null : n);
        long promptEstimate = config.tokensPerMinute() > 0 ? tokens.countMessages(thisCall.messages()) : 0;
        long remaining = call.deadline - System.nanoTime();
        if (remaining <= 0) {
            return CompletableFuture.failedFuture(new LlmException(LlmErrorKind.RETRIES_EXHAUSTED,
                    "call budget (llm.total-budget) spent before all " + call.wanted + " choices came", 0, null));
        }
        Timeout<WireCompletion> budget = CallPolicies.budget(Duration.ofNanos(remaining));
        AttemptGate gate = new AttemptGate(limits, promptEstimate, call.deadline);
        CompletableFuture<WireCompletion> exchange = Failsafe.with(budget, retryPolicy, gate, limits.attemptTimeout())
                .with(failsafeScheduler).getStageAsync(ChatExchange.chat(endpoint, thisCall));
        call.inFlight(exchange);
        return exchange.handle((completion, error) -> {
            if (error == null) {
                TokenUsage usage = completion.reportedUsage()
                        .orElseGet(() -> tokens.estimate(thisCall.messages(), completion.choices()))
                        .withCached(completion.cachedPromptTokens());
                limiter.charge(usage.totalTokens() - promptEstimate);
                int calls = call.add(completion, usage, gate.attempts());
                return call.choices.size() >= call.wanted || calls >= call.wanted ? CompletableFuture.<Void>completedFuture(null)
                        : send(call, followUp(call.resolved, calls), Math.min(call.missing(), maxChoicesPerCall.get()));
            }
            LlmException failure = gate.outcome(error, budget);
            if (failure.kind() == LlmErrorKind.INVALID_REQUEST && n > 1 && N_REFUSED.matcher(failure.detail()).find()) {
                maxChoicesPerCall.set(Math.max(1, Math.min(n - 1, limitIn(failure.detail()))));
                call.failedAttempts(failure.attempts());
                return send(call, request, Math.min(n, maxChoicesPerCall.get()));
            }
            if (failure.kind() == LlmErrorKind.INVALID_REQUEST && thisCall.reply() != null
                    && config.structuredOutput() == StructuredOutput.AUTO
                    && FORMAT_REFUSED.matcher(failure.detail()).find()) {
                structuredRefused = true;
                call.failedAttempts(failure.attempts());
                return send(call, request, n);
            }
            return CompletableFuture.<Void>failedFuture(failure);
        }).thenCompose(next -> next);
    }

    @Override
    public String embeddingModelOf(String use) {
        return config.embeddingModelFor(EmbeddingRequest.of(use, List.of()));
    }

    /**
     * Embeds the request's texts: the use's model ({@link LlmClientConfig#embeddingModelFor}), texts cut at
     * {@code embeddingMaxChars}, sent in batches of {@code embeddingBatch} (in parallel, each batch through the same
     * rate limits, connection permits, retries and budget as a chat exchange), metered once as one call of its use.
     */
    @Override
    public CompletableFuture<EmbeddingResponse> embed(EmbeddingRequest request) {
        long start = System.nanoTime();
        String model = config.embeddingModelFor(request);
        List<String> inputs = request.inputs().stream().map(text -> text == null ? ""
                : text.length() > config.embeddingMaxChars() ? text.substring(0, config.embeddingMaxChars()) : text)
                .toList();
        CompletableFuture<EmbeddingResponse> out = new CompletableFuture<>();
        if (inputs.isEmpty()) {
            out.complete(new EmbeddingResponse(List.of(), TokenUsage.NONE, model, false, 0, 0, false));
            return out;
        }
        long deadline = start + config.totalBudget().toNanos();
        List<CompletableFuture<EmbeddedBatch>> batches = new ArrayList<>();
        for (int from = 0; from < inputs.size(); from += config.embeddingBatch()) {
            List<String> part = inputs.subList(from, Math.min(inputs.size(), from + config.embeddingBatch()));
            batches.add(embedBatch(new EmbeddingRequest(request.stage(), part, model), deadline));
        }
        out.whenComplete((ignored, error) -> {
            if (out.isCancelled()) {
                batches.forEach(batch -> batch.cancel(true));
            }
        });
        CompletableFuture.allOf(batches.toArray(CompletableFuture[]::new)).whenComplete((ignored, error) -> {
            long latency = (System.nanoTime() - start) / 1_000_000;
            List<float[]> vectors = new ArrayList<>();
            TokenUsage usage = TokenUsage.NONE;
            int retries = 0;
            boolean simulated = false;
            String answered = model;
            for (CompletableFuture<EmbeddedBatch> batch : batches) {
                EmbeddedBatch done = batch.isDone() && !batch.isCompletedExceptionally() ? batch.join() : null;
                if (done != null) {
                    vectors.addAll(done.completion().vectors());
                    usage = usage.plus(done.usage());
                    retries += done.attempts() - 1;
                    simulated |= done.completion().simulated();
                    answered = done.completion().model();
                }
            }
            if (error == null) {
                meter.record(new UsageRecord(request.stage(), model, usage, retries, latency, null));
                EmbeddingResponse response = new EmbeddingResponse(vectors, usage, answered, simulated, latency,
                        retries, false);
                callbacks.execute(() -> out.complete(response));
            } else {
                LlmException failure = FailureClassifier.ofThrowable(error);
                meter.record(new UsageRecord(request.stage(), model, usage, retries + Math.max(0,
                        failure.attempts() - 1), latency, failure.kind()));
                callbacks.execute(() -> out.completeExceptionally(failure));
            }
        });
        return out;
    }

    /** One batch's answer, its usage (the server's, else estimated) and the attempts it took. */
    private record EmbeddedBatch(WireCompletion completion, TokenUsage usage, int attempts) {}

    private CompletableFuture<EmbeddedBatch> embedBatch(EmbeddingRequest batch, long deadline) {
        long remaining = deadline - System.nanoTime();
        // counted only when a tokens-per-minute limit needs it up front; else only if the server reports no usage
        long charged = config.tokensPerMinute() > 0 ? estimatedTokens(batch) : 0;
        Timeout<WireCompletion> budget = CallPolicies.budget(Duration.ofNanos(Math.max(1, remaining)));
        AttemptGate gate = new AttemptGate(limits, charged, deadline);
        CompletableFuture<WireCompletion> exchange = Failsafe.with(budget, retryPolicy, gate, limits.attemptTimeout())
                .with(failsafeScheduler).getStageAsync(ChatExchange.embeddings(endpoint, batch));
        CompletableFuture<EmbeddedBatch> result = exchange.handle((completion, error) -> {
            if (error != null) {
                throw new java.util.concurrent.CompletionException(gate.outcome(error, budget));
            }
            TokenUsage usage = completion.reportedUsage().orElseGet(() -> new TokenUsage((int) estimatedTokens(batch), 0, true));
            limiter.charge(usage.totalTokens() - charged);
            return new EmbeddedBatch(completion, usage, gate.attempts());
        });
        result.whenComplete((ignored, error) -> {
            if (result.isCancelled()) {
                exchange.cancel(true);
            }
        });
        return result;
    }

    private long estimatedTokens(EmbeddingRequest batch) {
        return batch.inputs().stream().mapToLong(tokens::countText).sum();
    }

    /** The largest n a refusal names ("... 1 <= value <= 4 ..."), else 1. */
    private static int limitIn(String message) {
        Matcher m = N_LIMIT.matcher(message);
        return m.find() ? Integer.parseInt(m.group(1)) : 1;
    }

    /** The request for the missing choices; a fixed seed is shifted so the extra samples differ. */
    private static ChatRequest followUp(ChatRequest resolved, int callIndex) {
        return resolved.seed() == null ? resolved : resolved.withSeed(resolved.seed() + callIndex);
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            http.close();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        try {
            timer.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * One chat call: the choices, usage, attempts and retries gathered over its exchanges, its deadline, and the
     * exchange in flight, which cancelling the call cancels (aborting its HTTP request, freeing its permit).
     */
    private static final class Call {
        final ChatRequest resolved;
        final int wanted;
        final long deadline;
        final List<String> choices = new ArrayList<>();
        final List<String> finishReasons = new ArrayList<>();
        TokenUsage usage = TokenUsage.NONE;
        int exchanges;
        int attempts;
        int retries;
        String model;
        boolean simulated;
        private CompletableFuture<?> inFlight;
        private boolean cancelled;

        Call(ChatRequest resolved, int wanted, long deadline) {
            this.resolved = resolved;
            this.wanted = wanted;
            this.deadline = deadline;
        }

        /** Adds one exchange's answer; returns how many exchanges have answered. */
        synchronized int add(WireCompletion completion, TokenUsage callUsage, int callAttempts) {
            choices.addAll(completion.choices());
            finishReasons.addAll(completion.finishReasons());
            usage = usage.plus(callUsage);
            attempts += callAttempts;
            retries += callAttempts - 1;
            model = completion.model();
            simulated = simulated || completion.simulated();
            return ++exchanges;
        }

        synchronized int missing() {
            return wanted - choices.size();
        }

        /** Attempts refused before the client adapted the request (n, reply format): they count as retries. */
        synchronized void failedAttempts(int count) {
            attempts += count;
            retries += count;
        }

        void inFlight(CompletableFuture<?> exchange) {
            boolean cancelNow;
            synchronized (this) {
                inFlight = exchange;
                cancelNow = cancelled;
            }
            if (cancelNow) {
                exchange.cancel(true);
            }
        }

        void cancel() {
            CompletableFuture<?> current;
            synchronized (this) {
                cancelled = true;
                current = inFlight;
            }
            if (current != null) {
                current.cancel(true);
            }
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

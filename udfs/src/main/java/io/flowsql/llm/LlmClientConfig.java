package io.flowsql.llm;

import io.flowsql.config.llm.EmbeddingEncoding;
import io.flowsql.config.llm.StructuredOutput;
import java.io.Serializable;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Where and how to call an OpenAI-compatible endpoint; serializable so a Flink job ships it to its
 * tasks, which build their own client from it. The API key is never printed.
 */
public final class LlmClientConfig implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Slots (requests decoded at once) assumed of a server when none are declared (llama.cpp --parallel, vLLM max-num-seqs). */
    public static final int DEFAULT_SERVER_SLOTS = io.flowsql.config.llm.LlmOptions.DEFAULT_SERVER_SLOTS;
    /**
     * Calls in flight per declared server slot: the client keeps a short queue at the server so a slot that
     * finishes finds its next request already there instead of waiting a round trip (measured: a 64-slot server
     * reached 0.49 of its ideal rate with 32 calls in flight, 0.94 with 128).
     */
    public static final int CALLS_PER_SLOT = io.flowsql.config.llm.LlmOptions.CALLS_PER_SLOT;

    private final String baseUrl;
    private final String apiKey;
    private final String defaultModel;
    private final LinkedHashMap<String, String> stageModels;
    private final Duration callTimeout;
    private final Duration connectTimeout;
    private final Duration totalBudget;
    private final int maxConcurrency;
    private final Duration queueBudget;
    private final int requestsPerMinute;
    private final int tokensPerMinute;
    private final Duration rateBurst;
    private final int maxAttempts;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final Duration maxRetryAfter;
    private final Duration retryWindow;
    private final StructuredOutput structuredOutput;
    private final EmbeddingEncoding embeddingEncoding;
    private final int defaultMaxTokens;
    private final LinkedHashMap<String, Integer> stageMaxTokens;
    private final int contextTokens;
    private final String replyOverlay;
    private final String embeddingModel;
    private final LinkedHashMap<String, String> embeddingModels;
    private final int embeddingBatch;
    private final int embeddingMaxChars;

    private LlmClientConfig(Builder b) {
        this.baseUrl = b.baseUrl.endsWith("/") ? b.baseUrl.substring(0, b.baseUrl.length() - 1) : b.baseUrl;
        this.apiKey = b.apiKey;
        this.defaultModel = b.defaultModel;
        this.stageModels = new LinkedHashMap<>(b.stageModels);
        this.callTimeout = b.callTimeout;
        this.connectTimeout = b.connectTimeout;
        this.totalBudget = b.totalBudget;
        this.maxConcurrency = b.maxConcurrency;
        this.queueBudget = b.queueBudget == null ? b.totalBudget : b.queueBudget;
        this.requestsPerMinute = b.requestsPerMinute;
        this.tokensPerMinute = b.tokensPerMinute;
        this.rateBurst = b.rateBurst;
        this.maxAttempts = b.maxAttempts;
        this.initialBackoff = b.initialBackoff;
        this.maxBackoff = b.maxBackoff;
        this.maxRetryAfter = b.maxRetryAfter;
        this.retryWindow = b.retryWindow;
        this.structuredOutput = b.structuredOutput;
        this.embeddingEncoding = b.embeddingEncoding;
        this.defaultMaxTokens = b.defaultMaxTokens;
        this.stageMaxTokens = new LinkedHashMap<>(b.stageMaxTokens);
        this.contextTokens = b.contextTokens;
        this.replyOverlay = b.replyOverlay;
        this.embeddingModel = b.embeddingModel;
        this.embeddingModels = new LinkedHashMap<>(b.embeddingModels);
        this.embeddingBatch = b.embeddingBatch;
        this.embeddingMaxChars = b.embeddingMaxChars;
    }

    /** The calls in flight that keep a server with this many slots busy: {@value #CALLS_PER_SLOT} per slot. */
    public static int concurrencyFor(int serverSlots) {
        return CALLS_PER_SLOT * serverSlots;
    }

    public static Builder builder(String baseUrl) {
        return new Builder(baseUrl);
    }

    /** Reads LLM_BASE_URL, LLM_API_KEY, LLM_MODEL and the optional LLM_* settings of docs/LLM.md. */
    public static LlmClientConfig fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /** As {@link #fromEnvironment()}, from the given variables. */
    public static LlmClientConfig fromEnvironment(Map<String, String> env) {
        Builder builder = builder(env.getOrDefault("LLM_BASE_URL", "http://127.0.0.1:8000/v1"))
                .apiKey(env.get("LLM_API_KEY"))
                .defaultModel(env.getOrDefault("LLM_MODEL", "default"));
        String stageModels = env.get("LLM_STAGE_MODELS");
        if (stageModels != null && !stageModels.isBlank()) {
            for (String pair : stageModels.split(",")) {
                String[] parts = pair.split("=", 2);
                if (parts.length != 2) {
                    throw new IllegalArgumentException("LLM_STAGE_MODELS wants stage=model pairs, got: " + pair);
                }
                builder.stageModel(parts[0].trim(), parts[1].trim());
            }
        }
        if (env.containsKey("LLM_TIMEOUT_SECONDS")) {
            builder.callTimeout(Duration.ofSeconds(Long.parseLong(env.get("LLM_TIMEOUT_SECONDS"))));
        }
        if (env.containsKey("LLM_BUDGET_SECONDS")) {
            builder.totalBudget(Duration.ofSeconds(Long.parseLong(env.get("LLM_BUDGET_SECONDS"))));
        }
        if (env.containsKey("LLM_SERVER_SLOTS")) {
            builder.serverSlots(Integer.parseInt(env.get("LLM_SERVER_SLOTS")));
        }
        if (env.containsKey("LLM_MAX_CONCURRENCY")) {
            builder.maxConcurrency(Integer.parseInt(env.get("LLM_MAX_CONCURRENCY")));
        }
        if (env.containsKey("LLM_QUEUE_BUDGET_SECONDS")) {
            builder.queueBudget(Duration.ofSeconds(Long.parseLong(env.get("LLM_QUEUE_BUDGET_SECONDS"))));
        }
        if (env.containsKey("LLM_REQUESTS_PER_MINUTE")) {
            builder.requestsPerMinute(Integer.parseInt(env.get("LLM_REQUESTS_PER_MINUTE")));
        }
        if (env.containsKey("LLM_TOKENS_PER_MINUTE")) {
            builder.tokensPerMinute(Integer.parseInt(env.get("LLM_TOKENS_PER_MINUTE")));
        }
        if (env.containsKey("LLM_MAX_ATTEMPTS")) {
            builder.maxAttempts(Integer.parseInt(env.get("LLM_MAX_ATTEMPTS")));
        }
        if (env.containsKey("LLM_RETRY_WINDOW_SECONDS")) {
            builder.retryWindow(Duration.ofSeconds(Long.parseLong(env.get("LLM_RETRY_WINDOW_SECONDS"))));
        }
        if (env.containsKey("LLM_EMBEDDING_ENCODING")) {
            builder.embeddingEncoding(EmbeddingEncoding.parse(env.get("LLM_EMBEDDING_ENCODING")));
        }
        if (env.containsKey("LLM_STRUCTURED_OUTPUT")) {
            builder.structuredOutput(StructuredOutput.parse(env.get("LLM_STRUCTURED_OUTPUT")));
        }
        if (env.containsKey("LLM_MAX_TOKENS")) {
            builder.defaultMaxTokens(Integer.parseInt(env.get("LLM_MAX_TOKENS")));
        }
        if (env.containsKey("LLM_CONTEXT_TOKENS")) {
            builder.contextTokens(Integer.parseInt(env.get("LLM_CONTEXT_TOKENS")));
        }
        builder.replyOverlay(env.get("LLM_REPLY_OVERLAY"));
        return builder.build();
    }

    /**
     * The model for a request: its own when set, else the model of its stage (an exact match, or the
     * longest configured prefix ending at a dot: "mmsql" serves "mmsql.detect"), else the default.
     */
    public String modelFor(ChatRequest request) {
        if (request.model() != null && !request.model().isBlank()) {
            return request.model();
        }
        String best = byStage(stageModels, request.stage());
        return best != null ? best : defaultModel;
    }

    /**
     * The model that embeds for a use: the request's own when set, else the one configured for its use (exact name or
     * longest prefix, {@code llm.embedding-model.<use>}), else the embedding model ({@code llm.embedding-model}),
     * else the default model.
     */
    public String embeddingModelFor(EmbeddingRequest request) {
        if (request.model() != null && !request.model().isBlank()) {
            return request.model();
        }
        String byUse = byStage(embeddingModels, request.stage());
        return byUse != null ? byUse : embeddingModel != null ? embeddingModel : defaultModel;
    }

    /** Most texts one {@code /embeddings} request carries; a longer list is sent in batches. */
    public int embeddingBatch() { return embeddingBatch; }
    /** Texts longer than this many characters are cut before they are embedded (a server refuses inputs over its context). */
    public int embeddingMaxChars() { return embeddingMaxChars; }
    public Map<String, String> embeddingModels() { return Map.copyOf(embeddingModels); }

    /**
     * The reply budget (max_tokens) of a request: its own when set (a re-ask after a cut reply), else the one
     * configured for its stage (exact name or longest prefix), else the one its reply schema declares
     * ({@code x-max-tokens}), else the default; 0 sends none.
     */
    public int maxTokensFor(ChatRequest request) {
        if (request.maxTokens() != null) {
            return request.maxTokens();
        }
        Integer configured = byStage(stageMaxTokens, request.stage());
        if (configured != null) {
            return configured;
        }
        if (request.reply() != null && request.reply().maxTokens().isPresent()) {
            return request.reply().maxTokens().get();
        }
        return defaultMaxTokens;
    }

    private static <V> V byStage(Map<String, V> values, String stage) {
        return ByStage.lookup(values, stage);
    }

    public String baseUrl() { return baseUrl; }
    /** The API key, or null; for the Authorization header only. */
    public String apiKey() { return apiKey; }
    public String defaultModel() { return defaultModel; }
    public Map<String, String> stageModels() { return Map.copyOf(stageModels); }
    public Duration callTimeout() { return callTimeout; }
    public Duration connectTimeout() { return connectTimeout; }
    public Duration totalBudget() { return totalBudget; }
    public int maxConcurrency() { return maxConcurrency; }
    /** Longest wait of one attempt for a connection permit; then the call fails with QUEUE_TIMEOUT. */
    public Duration queueBudget() { return queueBudget; }
    public int requestsPerMinute() { return requestsPerMinute; }
    public int tokensPerMinute() { return tokensPerMinute; }
    public Duration rateBurst() { return rateBurst; }
    public int maxAttempts() { return maxAttempts; }
    public Duration initialBackoff() { return initialBackoff; }
    public Duration maxBackoff() { return maxBackoff; }
    public Duration maxRetryAfter() { return maxRetryAfter; }
    public Duration retryWindow() { return retryWindow; }
    public StructuredOutput structuredOutput() { return structuredOutput; }
    public EmbeddingEncoding embeddingEncoding() { return embeddingEncoding; }
    public int defaultMaxTokens() { return defaultMaxTokens; }
    public Map<String, Integer> stageMaxTokens() { return Map.copyOf(stageMaxTokens); }
    /** The model's context per request in tokens (a llama.cpp slot: -c divided by --parallel); 0 = not checked. */
    public int contextTokens() { return contextTokens; }
    /** Constraints laid over every reply schema ({@link ReplyOverlay}: JSON text or a file path); null for none. */
    public String replyOverlay() { return replyOverlay; }

    @Override
    public String toString() {
        return "LlmClientConfig{baseUrl=" + baseUrl + ", apiKey=" + (apiKey == null ? "none" : "***")
                + ", defaultModel=" + defaultModel + ", stageModels=" + stageModels + ", callTimeout=" + callTimeout
                + ", totalBudget=" + totalBudget + ", maxConcurrency=" + maxConcurrency + ", queueBudget=" + queueBudget
                + ", requestsPerMinute="
                + requestsPerMinute + ", tokensPerMinute=" + tokensPerMinute + ", maxAttempts=" + maxAttempts
                + ", retryWindow=" + retryWindow + ", structuredOutput=" + structuredOutput + ", embeddingEncoding=" + embeddingEncoding + ", defaultMaxTokens="
                + defaultMaxTokens + ", stageMaxTokens=" + stageMaxTokens + ", contextTokens=" + contextTokens
                + (replyOverlay == null ? "" : ", replyOverlay=" + replyOverlay) + "}";
    }

    /** Builds a configuration with defaults fit for a local inference server. */
    public static final class Builder {
        private final String baseUrl;
        private String apiKey;
        private String defaultModel = "default";
        private final LinkedHashMap<String, String> stageModels = new LinkedHashMap<>();
        private Duration callTimeout = Duration.ofSeconds(60);
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration totalBudget = Duration.ofMinutes(5);
        private int maxConcurrency = concurrencyFor(DEFAULT_SERVER_SLOTS);
        private Duration queueBudget;
        private int requestsPerMinute;
        private int tokensPerMinute;
        private Duration rateBurst = Duration.ofSeconds(1);
        private int maxAttempts = 30;
        private Duration initialBackoff = Duration.ofMillis(500);
        private Duration maxBackoff = Duration.ofSeconds(5);
        private Duration maxRetryAfter = Duration.ofSeconds(60);
        private Duration retryWindow = Duration.ofSeconds(90);
        private StructuredOutput structuredOutput = StructuredOutput.AUTO;
        private EmbeddingEncoding embeddingEncoding = EmbeddingEncoding.BASE64;
        private int defaultMaxTokens = 1024;
        private final LinkedHashMap<String, Integer> stageMaxTokens = new LinkedHashMap<>();
        private int contextTokens;
        private String replyOverlay;
        private String embeddingModel;
        private final LinkedHashMap<String, String> embeddingModels = new LinkedHashMap<>();
        private int embeddingBatch = 64;
        private int embeddingMaxChars = 2000;

        private Builder(String baseUrl) {
            this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
        }

        public Builder apiKey(String value) { this.apiKey = value == null || value.isBlank() ? null : value; return this; }
        public Builder defaultModel(String value) { this.defaultModel = Objects.requireNonNull(value); return this; }
        /** The model for a stage name or a stage prefix ("mmsql" covers "mmsql.detect"). */
        public Builder stageModel(String stage, String model) { this.stageModels.put(stage, model); return this; }
        /** Longest wait for one HTTP attempt. */
        public Builder callTimeout(Duration value) { this.callTimeout = value; return this; }
        public Builder connectTimeout(Duration value) { this.connectTimeout = value; return this; }
        /** Longest time a call may take in all, waits and retries included; then RETRIES_EXHAUSTED. */
        public Builder totalBudget(Duration value) { this.totalBudget = value; return this; }
        /** The server's slots: sets the calls in flight to {@link #concurrencyFor} them (a later maxConcurrency wins). */
        public Builder serverSlots(int slots) {
            if (slots < 1) {
                throw new IllegalArgumentException("server slots must be >= 1");
            }
            this.maxConcurrency = concurrencyFor(slots);
            return this;
        }
        /** Most HTTP requests in flight to the endpoint at once. */
        public Builder maxConcurrency(int value) { this.maxConcurrency = value; return this; }
        /**
         * Longest wait of one attempt for one of the {@code maxConcurrency} permits (default: the whole
         * {@code totalBudget}); 0 = no queue, an attempt that finds no free permit fails at once.
         */
        public Builder queueBudget(Duration value) { this.queueBudget = Objects.requireNonNull(value); return this; }
        /** 0 for no limit. */
        public Builder requestsPerMinute(int value) { this.requestsPerMinute = value; return this; }
        /** 0 for no limit. */
        public Builder tokensPerMinute(int value) { this.tokensPerMinute = value; return this; }
        /** How much of the per-minute allowance may be spent at once (default one second's worth). */
        public Builder rateBurst(Duration value) { this.rateBurst = value; return this; }
        /** HTTP attempts per call, the first included. */
        public Builder maxAttempts(int value) { this.maxAttempts = value; return this; }
        public Builder initialBackoff(Duration value) { this.initialBackoff = value; return this; }
        public Builder maxBackoff(Duration value) { this.maxBackoff = value; return this; }
        /** A server's Retry-After longer than this is cut to it. */
        public Builder maxRetryAfter(Duration value) { this.maxRetryAfter = value; return this; }
        /** How long transient failures (connection refused, 5xx, timeouts) are retried, from the first one. */
        public Builder retryWindow(Duration value) { this.retryWindow = Objects.requireNonNull(value); return this; }
        public Builder structuredOutput(StructuredOutput value) { this.structuredOutput = Objects.requireNonNull(value); return this; }
        public Builder embeddingEncoding(EmbeddingEncoding value) { this.embeddingEncoding = Objects.requireNonNull(value); return this; }
        /** max_tokens of a stage that declares none and has none configured; 0 sends none. */
        public Builder defaultMaxTokens(int value) { this.defaultMaxTokens = value; return this; }
        /** max_tokens of a stage name or prefix, over the stage's declared default. */
        public Builder stageMaxTokens(String stage, int tokens) { this.stageMaxTokens.put(stage, tokens); return this; }
        /** The context of one request in tokens; a prompt that cannot fit fails before it is sent. 0 = unchecked. */
        public Builder contextTokens(int value) { this.contextTokens = value; return this; }
        /** Constraints laid over every reply schema (a weak model's; {@link ReplyOverlay}); null or blank for none. */
        public Builder replyOverlay(String value) { this.replyOverlay = value == null || value.isBlank() ? null : value; return this; }

        /** The model of every embedding use unless one names its own (blank: the default model). */
        public Builder embeddingModel(String value) { this.embeddingModel = value == null || value.isBlank() ? null : value; return this; }
        /** The embedding model of a use or use prefix ({@code opensearch.extract} covers {@code opensearch.extract.values}). */
        public Builder embeddingModel(String use, String model) { this.embeddingModels.put(use, model); return this; }
        /** Most texts per {@code /embeddings} request (default 64). */
        public Builder embeddingBatch(int value) { this.embeddingBatch = value; return this; }
        /** Characters of one text sent to be embedded at most (default 2,000). */
        public Builder embeddingMaxChars(int value) { this.embeddingMaxChars = value; return this; }

        public LlmClientConfig build() {
            if (embeddingBatch < 1 || embeddingMaxChars < 1) {
                throw new IllegalArgumentException("embeddingBatch and embeddingMaxChars must be >= 1");
            }
            if (!baseUrl.startsWith("http://") && !baseUrl.startsWith("https://")) {
                throw new IllegalArgumentException("baseUrl must start with http:// or https://: " + baseUrl);
            }
            if (maxConcurrency < 1 || maxAttempts < 1) {
                throw new IllegalArgumentException("maxConcurrency (llm.max-concurrency) and maxAttempts (llm.max-retries + 1) "
                        + "must be >= 1");
            }
            if (defaultMaxTokens < 0 || contextTokens < 0 || stageMaxTokens.values().stream().anyMatch(t -> t < 0)) {
                throw new IllegalArgumentException("max tokens and context tokens must be >= 0 (0 = none)");
            }
            if (requestsPerMinute < 0 || tokensPerMinute < 0) {
                throw new IllegalArgumentException("rate limits must be >= 0 (0 = none)");
            }
            if (callTimeout.isNegative() || callTimeout.isZero() || totalBudget.compareTo(callTimeout) < 0) {
                throw new IllegalArgumentException("callTimeout (llm.request-timeout) must be > 0 and totalBudget "
                        + "(llm.total-budget) >= callTimeout");
            }
            if (queueBudget != null && (queueBudget.isNegative() || queueBudget.compareTo(totalBudget) > 0)) {
                throw new IllegalArgumentException("queueBudget (llm.queue-budget, " + queueBudget + ") must be between 0 "
                        + "and totalBudget (llm.total-budget, " + totalBudget + "): the wait for a connection permit is "
                        + "part of the call's budget");
            }
            if (initialBackoff.isNegative() || initialBackoff.isZero() || maxBackoff.compareTo(initialBackoff) < 0) {
                throw new IllegalArgumentException("initialBackoff (" + initialBackoff + ") must be > 0 and at most "
                        + "maxBackoff (" + maxBackoff + ")");
            }
            if (retryWindow.isNegative() || maxRetryAfter.isNegative() || rateBurst.isNegative() || rateBurst.isZero()) {
                throw new IllegalArgumentException("retryWindow (llm.retry-window) and maxRetryAfter must be >= 0, "
                        + "rateBurst > 0");
            }
            return new LlmClientConfig(this);
        }
    }
}

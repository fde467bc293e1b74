package io.flowsql.config.llm;

import io.flowsql.config.OptionFamily;
import io.flowsql.config.Settings;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import java.time.Duration;
import java.util.List;

/**
 * The LLM room: where the model server is, how its key is found (by reference: {@code llm.api-key-env},
 * {@code llm.api-key-file}), the models per stage, the client's concurrency, retries, budgets, rate limits and its
 * response cache (the engine reads them into its client configuration: io.flowsql.job.EngineWiring).
 */
public final class LlmOptions {
    private LlmOptions() {}

    /** Requests the server decodes at once unless llm.server-slots says otherwise. */
    public static final int DEFAULT_SERVER_SLOTS = 16;
    /** LLM calls in flight per server slot when llm.max-concurrency is 0: one decoding, one being sent or read. */
    public static final int CALLS_PER_SLOT = 2;

    public static final ConfigOption<String> BASE_URL = ConfigOptions.key("llm.base-url")
            .stringType().defaultValue("http://127.0.0.1:8000/v1")
            .withDescription("OpenAI-compatible endpoint (…/v1). The quickstart points it at the simulated server.");
    public static final ConfigOption<String> API_KEY = ConfigOptions.key("llm.api-key")
            .stringType().defaultValue("")
            .withDescription("Bearer key for the endpoint; blank sends none (then llm.api-key-env or llm.api-key-file). "
                    + "Refused on the Flink SQL path, whose options are visible in the job's configuration.");
    public static final ConfigOption<String> API_KEY_ENV = ConfigOptions.key("llm.api-key-env")
            .stringType().defaultValue("")
            .withDescription("The environment variable holding the endpoint's key, read where the engine starts (the "
                    + "TaskManagers for the Flink SQL functions), when llm.api-key is blank.");
    public static final ConfigOption<String> API_KEY_FILE = ConfigOptions.key("llm.api-key-file")
            .stringType().defaultValue("")
            .withDescription("A file holding the endpoint's key (its first line), read where the engine starts, when "
                    + "llm.api-key and llm.api-key-env are blank.");
    public static final ConfigOption<String> MODEL = ConfigOptions.key("llm.model")
            .stringType().defaultValue("qwen2.5-coder-7b-instruct")
            .withDescription("Model of every stage unless llm.model.<stage> names another (e.g. llm.model.magsql.generate).");
    public static final ConfigOption<String> EMBEDDING_MODEL = ConfigOptions.key("llm.embedding-model")
            .stringType().defaultValue("")
            .withDescription("Model of the /v1/embeddings calls (OpenSearch-SQL's column and value retrieval) unless "
                    + "llm.embedding-model.<use> names another; blank uses llm.model (a llama-server started with --embeddings).");
    public static final ConfigOption<EmbeddingEncoding> EMBEDDING_ENCODING = ConfigOptions.key("llm.embedding-encoding")
            .enumType(EmbeddingEncoding.class).defaultValue(EmbeddingEncoding.BASE64)
            .withDescription("How /v1/embeddings is asked to write vectors (encoding_format): base64 (little-endian floats "
                    + "in one string; OpenAI, llama.cpp, vLLM) or float (lists of numbers, for a server that refuses base64). "
                    + "Either answer is read whatever was asked.");
    public static final ConfigOption<Integer> SERVER_SLOTS = ConfigOptions.key("llm.server-slots")
            .intType().defaultValue(DEFAULT_SERVER_SLOTS)
            .withDescription("Requests the LLM server decodes at once (llama.cpp --parallel, vLLM --max-num-seqs, OLLAMA_NUM_PARALLEL); "
                    + "the client's concurrency is derived from it (docs/LLM.md#concurrency).");
    public static final ConfigOption<Integer> MAX_CONCURRENCY = ConfigOptions.key("llm.max-concurrency")
            .intType().defaultValue(0)
            .withDescription("LLM calls in flight per TaskManager JVM (shared by all operators); 0 = "
                    + CALLS_PER_SLOT + " × llm.server-slots.");
    public static final ConfigOption<Duration> QUEUE_BUDGET = ConfigOptions.key("llm.queue-budget")
            .durationType().defaultValue(Duration.ofMinutes(5))
            .withDescription("Longest wait of one LLM attempt for one of the llm.max-concurrency connection permits; past it the call "
                    + "fails with QUEUE_TIMEOUT and nothing is sent. Never longer than llm.total-budget (the default follows it; a "
                    + "value set above it fails at start); 0 = no queue (then stage.capacity must not exceed the permits).");
    public static final ConfigOption<Duration> REQUEST_TIMEOUT = ConfigOptions.key("llm.request-timeout")
            .durationType().defaultValue(Duration.ofSeconds(120))
            .withDescription("Time limit of one LLM HTTP call.");
    public static final ConfigOption<Integer> MAX_RETRIES = ConfigOptions.key("llm.max-retries")
            .intType().defaultValue(30)
            .withDescription("Most retries of a failed LLM call (429, 5xx but 501, timeouts, connection refused), with backoff (0.5 s doubling "
                    + "to 5 s) within llm.retry-window.");
    public static final ConfigOption<Duration> RETRY_WINDOW = ConfigOptions.key("llm.retry-window")
            .durationType().defaultValue(Duration.ofSeconds(90))
            .withDescription("How long a failing LLM call keeps retrying, from its first failure: enough to ride out a server restart "
                    + "or model reload; keep it below stage.timeout.");
    public static final ConfigOption<StructuredOutput> STRUCTURED_OUTPUT = ConfigOptions.key("llm.structured-output")
            .enumType(StructuredOutput.class).defaultValue(StructuredOutput.AUTO)
            .withDescription("How a stage's reply schema is sent: json-schema (response_format), grammar (GBNF, llama.cpp), json-object, "
                    + "none (text format only), or auto (json-schema, text after the server refuses it).");
    public static final ConfigOption<String> REPLY_OVERLAY = ConfigOptions.key("llm.reply-overlay")
            .stringType().defaultValue("")
            .withDescription("Constraints laid over every stage's reply schema, as JSON text or a file path: {\"properties\": {name: "
                    + "keywords}, \"strings\": keywords}, e.g. a pattern for sql and a maxLength for other text, for a model too "
                    + "weak to stop or to write SQL on its own (the tests' tiny model); empty = none.");
    public static final ConfigOption<Integer> MAX_TOKENS = ConfigOptions.key("llm.max-tokens")
            .intType().defaultValue(1024)
            .withDescription("max_tokens of a stage that declares no reply budget; llm.max-tokens.<stage> overrides a stage's own "
                    + "(e.g. llm.max-tokens.opensearch.generate=800); 0 sends none.");
    public static final ConfigOption<Integer> CONTEXT_TOKENS = ConfigOptions.key("llm.context-tokens")
            .intType().defaultValue(0)
            .withDescription("Context of one request in tokens (llama.cpp: -c divided by --parallel); a prompt that leaves no room for "
                    + "a reply fails before it is sent, and max_tokens is lowered to fit; 0 = not checked.");
    public static final ConfigOption<Integer> REQUESTS_PER_MINUTE = ConfigOptions.key("llm.requests-per-minute")
            .intType().defaultValue(0)
            .withDescription("Most LLM requests started per minute per TaskManager JVM; 0 = no limit.");
    public static final ConfigOption<Integer> TOKENS_PER_MINUTE = ConfigOptions.key("llm.tokens-per-minute")
            .intType().defaultValue(0)
            .withDescription("Most LLM tokens (prompt and completion as the endpoint counts them) per minute per TaskManager JVM; 0 = no limit.");
    public static final ConfigOption<Duration> TOTAL_BUDGET = ConfigOptions.key("llm.total-budget")
            .durationType().defaultValue(Duration.ofMinutes(5))
            .withDescription("Time limit of one LLM call in all, rate-limit waits and retries included; at least llm.request-timeout.");
    public static final ConfigOption<String> CACHE_DIR = ConfigOptions.key("llm.cache-dir")
            .stringType().defaultValue("")
            .withDescription("Folder of the on-disk LLM response cache (record and replay, one file per request); blank = no cache. "
                    + "A relative path is resolved in each TaskManager's working directory.");
    public static final ConfigOption<CacheMode> CACHE_MODE = ConfigOptions.key("llm.cache-mode")
            .enumType(CacheMode.class).defaultValue(CacheMode.READ_WRITE)
            .withDescription("How llm.cache-dir is used: read-write (replay, record misses), read-only (replay; a miss fails the stage, "
                    + "nothing is sent) or off.");
    public static final OptionFamily<String> MODEL_BY_STAGE = OptionFamily.of("llm.model.", "<stage>",
            String.class, "Model of one stage (overrides llm.model), e.g. llm.model.mmsql.detect=qwen2.5-0.5b.");
    public static final OptionFamily<String> EMBEDDING_MODEL_BY_USE = OptionFamily.of("llm.embedding-model.", "<use>",
            String.class, "Embedding model of one use (overrides llm.embedding-model): opensearch.retrieve.columns, "
                    + "opensearch.retrieve.values, or a prefix of them.");
    public static final OptionFamily<Integer> MAX_TOKENS_BY_STAGE = OptionFamily.of("llm.max-tokens.", "<stage>",
            Integer.class, "max_tokens of one stage (exact name or prefix; overrides the stage's own budget).");
    public static final OptionFamily<String> SAMPLING_BY_STAGE = OptionFamily.of("llm.stage.",
            "<stage>.temperature, llm.stage.<stage>.top-p", String.class, "Temperature (0 to 2) or top_p (0 to 1] of one "
                    + "stage or task (exact name or prefix; overrides what the stage registry declares, docs/AGENTS.md).");

    public static List<ConfigOption<?>> options() {
        return List.of(BASE_URL, API_KEY, API_KEY_ENV, API_KEY_FILE, MODEL, EMBEDDING_MODEL, EMBEDDING_ENCODING, SERVER_SLOTS, MAX_CONCURRENCY,
                QUEUE_BUDGET, REQUEST_TIMEOUT, MAX_RETRIES, RETRY_WINDOW, STRUCTURED_OUTPUT, REPLY_OVERLAY, MAX_TOKENS,
                CONTEXT_TOKENS, REQUESTS_PER_MINUTE, TOKENS_PER_MINUTE, TOTAL_BUDGET, CACHE_DIR, CACHE_MODE);
    }

    public static List<OptionFamily<?>> families() {
        return List.of(MODEL_BY_STAGE, EMBEDDING_MODEL_BY_USE, MAX_TOKENS_BY_STAGE, SAMPLING_BY_STAGE);
    }

    /** Fails naming the key when a value is out of range or contradicts another of the room's. */
    public static void validate(Settings settings) {
        settings.requireAtLeast(SERVER_SLOTS, 1);
        for (ConfigOption<Integer> zeroIsNone : List.of(MAX_CONCURRENCY, MAX_RETRIES, MAX_TOKENS, CONTEXT_TOKENS,
                REQUESTS_PER_MINUTE, TOKENS_PER_MINUTE)) {
            settings.requireAtLeast(zeroIsNone, 0);
        }
        Duration total = settings.get(TOTAL_BUDGET);
        if (total.compareTo(settings.get(REQUEST_TIMEOUT)) < 0) {
            throw new IllegalArgumentException(TOTAL_BUDGET.key() + " (" + total + ") is shorter than " + REQUEST_TIMEOUT.key()
                    + " (" + settings.get(REQUEST_TIMEOUT) + "): the budget of a call in all holds at least one attempt");
        }
        Duration queue = settings.get(QUEUE_BUDGET);
        if (queue.isNegative() || settings.isSet(QUEUE_BUDGET) && queue.compareTo(total) > 0) {
            throw new IllegalArgumentException(QUEUE_BUDGET.key() + " (" + queue + ") must be between 0 and "
                    + TOTAL_BUDGET.key() + " (" + total + "): the wait for a connection permit is part of the call's budget");
        }
    }
}

package io.flowsql.job;

import io.flowsql.agents.common.AgentSettings;

import java.util.List;

/** Every option of the job, with defaults and descriptions; docs/OPERATIONS.md's table is printed from this list. */
public final class JobOptions {
    private JobOptions() {}

    /** The agents' defaults, so the options' defaults and AgentSettings never disagree. */
    private static final AgentSettings AGENT_DEFAULTS = AgentSettings.defaults();

    // --- Kafka
    public static final JobOption<String> BOOTSTRAP_SERVERS = JobOption.text("kafka.bootstrap-servers", "127.0.0.1:9092",
            "Kafka bootstrap servers.");
    public static final JobOption<String> QUESTIONS_TOPIC = JobOption.text("kafka.topic.questions", "questions",
            "Topic the questions are read from.");
    public static final JobOption<String> ANSWERS_TOPIC = JobOption.text("kafka.topic.answers", "answers",
            "Topic the answers are written to (exactly once) and read back, read_committed, for dialogue history.");
    public static final JobOption<String> DEAD_LETTERS_TOPIC = JobOption.text("kafka.topic.dead-letters", "dead-letters",
            "Topic refused records go to, with reason and topic/partition/offset.");
    public static final JobOption<String> GROUP_ID = JobOption.text("kafka.group-id", "flowsql-job",
            "Consumer group of the question source (the feedback source uses <group-id>-feedback).");
    public static final JobOption<String> STARTING_OFFSETS = JobOption.text("kafka.starting-offsets", "committed-or-earliest",
            "Where a fresh job starts reading questions: committed-or-earliest, earliest or latest.");
    public static final JobOption<String> TRANSACTIONAL_ID_PREFIX = JobOption.text("kafka.transactional-id-prefix", "flowsql",
            "Prefix of the sinks' transactional ids; unique per job writing to the same cluster.");
    public static final JobOption<java.time.Duration> TRANSACTION_TIMEOUT = JobOption.duration("kafka.transaction-timeout", "15min",
            "transaction.timeout.ms of the exactly-once sinks; must exceed the checkpoint interval and not exceed the broker's transaction.max.timeout.ms.");

    public static final JobOption<Integer> MAX_RECORD_BYTES = JobOption.integer("questions.max-record-bytes", 128 * 1024,
            "A question record's size at most; a larger one is a dead letter (too_large) with a bounded excerpt.");
    public static final JobOption<Integer> DEAD_LETTER_EXCERPT_BYTES = JobOption.integer("dead-letters.max-excerpt-bytes", 4096,
            "Bytes of a refused record's value kept in its dead letter at most, once JSON-escaped (plus its size and SHA-256).");

    // --- Flink
    public static final JobOption<String> JOB_NAME = JobOption.text("job.name", "FlowSQL", "Flink job name.");
    public static final JobOption<java.time.Duration> CHECKPOINT_INTERVAL = JobOption.duration("job.checkpoint-interval", "500ms",
            "Checkpoint interval; answers become visible to read_committed readers at each checkpoint (chosen from "
                    + "measurements: docs/ARCHITECTURE.md#measured).");
    public static final JobOption<String> CHECKPOINT_DIR = JobOption.text("job.checkpoint-dir", "",
            "Durable checkpoint folder/URI (execution.checkpointing.dir); blank keeps checkpoints in the JobManager.");
    public static final JobOption<Integer> PARALLELISM = JobOption.integer("job.parallelism", 0,
            "Parallelism of every operator; 0 keeps the environment's default.");
    public static final JobOption<Integer> MAX_PARALLELISM = JobOption.integer("job.max-parallelism", 128,
            "Most parallelism the job can ever be rescaled to (Flink's key groups); fixed once state exists: a savepoint "
                    + "restores only into a job with the same value.");
    public static final JobOption<Integer> SOURCE_PARALLELISM = JobOption.integer("job.source-parallelism", 0,
            "Parallelism of the Kafka sources and the parse step; 0 uses job.parallelism.");

    // --- Engine
    public static final JobOption<String> STRATEGY = JobOption.text("engine.strategy", "full",
            "Default strategy preset for questions without options.strategy (mag-sql, sqlfix, opensearch, mmsql, full).");
    public static final JobOption<String> LLM_BASE_URL = JobOption.text("llm.base-url", "http://127.0.0.1:8000/v1",
            "OpenAI-compatible endpoint (…/v1). The quickstart points it at the simulated server.");
    public static final JobOption<String> LLM_API_KEY = JobOption.text("llm.api-key", "",
            "Bearer key for the endpoint; blank sends none.");
    public static final JobOption<String> LLM_MODEL = JobOption.text("llm.model", "qwen2.5-coder-7b-instruct",
            "Model of every stage unless llm.model.<stage> names another (e.g. llm.model.magsql.generate).");
    public static final JobOption<Integer> LLM_SERVER_SLOTS = JobOption.integer("llm.server-slots",
            io.flowsql.llm.LlmClientConfig.DEFAULT_SERVER_SLOTS,
            "Requests the LLM server decodes at once (llama.cpp --parallel, vLLM --max-num-seqs, OLLAMA_NUM_PARALLEL); "
                    + "the client's concurrency is derived from it (docs/LLM.md#concurrency).");
    public static final JobOption<Integer> LLM_MAX_CONCURRENCY = JobOption.integer("llm.max-concurrency", 0,
            "LLM calls in flight per TaskManager JVM (shared by all operators); 0 = "
                    + io.flowsql.llm.LlmClientConfig.CALLS_PER_SLOT + " × llm.server-slots.");
    public static final JobOption<java.time.Duration> LLM_TIMEOUT = JobOption.duration("llm.request-timeout", "120s",
            "Time limit of one LLM HTTP call.");
    public static final JobOption<Integer> LLM_MAX_RETRIES = JobOption.integer("llm.max-retries", 30,
            "Most retries of a failed LLM call (429, 5xx, timeouts, connection refused), with backoff (0.5 s doubling "
                    + "to 5 s) within llm.retry-window.");
    public static final JobOption<java.time.Duration> LLM_RETRY_WINDOW = JobOption.duration("llm.retry-window", "90s",
            "How long a failing LLM call keeps retrying, from its first failure: enough to ride out a server restart "
                    + "or model reload; keep it below stage.timeout.");
    public static final JobOption<String> LLM_STRUCTURED_OUTPUT = JobOption.text("llm.structured-output", "auto",
            "How a stage's reply schema is sent: json-schema (response_format), grammar (GBNF, llama.cpp), json-object, "
                    + "none (text format only), or auto (json-schema, text after the server refuses it).");
    public static final JobOption<Integer> LLM_MAX_TOKENS = JobOption.integer("llm.max-tokens", 1024,
            "max_tokens of a stage that declares no reply budget; llm.max-tokens.<stage> overrides a stage's own "
                    + "(e.g. llm.max-tokens.opensearch.generate=800); 0 sends none.");
    public static final JobOption<Integer> LLM_CONTEXT_TOKENS = JobOption.integer("llm.context-tokens", 0,
            "Context of one request in tokens (llama.cpp: -c divided by --parallel); a prompt that leaves no room for "
                    + "a reply fails before it is sent, and max_tokens is lowered to fit; 0 = not checked.");
    public static final JobOption<Integer> LLM_REQUESTS_PER_MINUTE = JobOption.integer("llm.requests-per-minute", 0,
            "Most LLM requests started per minute per TaskManager JVM; 0 = no limit.");
    public static final JobOption<Integer> LLM_TOKENS_PER_MINUTE = JobOption.integer("llm.tokens-per-minute", 0,
            "Most LLM tokens (prompt and completion as the endpoint counts them) per minute per TaskManager JVM; 0 = no limit.");
    public static final JobOption<java.time.Duration> LLM_TOTAL_BUDGET = JobOption.duration("llm.total-budget", "5min",
            "Time limit of one LLM call in all, rate-limit waits and retries included; at least llm.request-timeout.");
    public static final JobOption<String> LLM_CACHE_DIR = JobOption.text("llm.cache-dir", "",
            "Folder of the on-disk LLM response cache (record and replay, one file per request); blank = no cache. "
                    + "A relative path is resolved in each TaskManager's working directory.");
    public static final JobOption<String> LLM_CACHE_MODE = JobOption.text("llm.cache-mode", "read-write",
            "How llm.cache-dir is used: read-write (replay, record misses), read-only (replay; a miss fails the stage, "
                    + "nothing is sent) or off.");
    public static final JobOption<String> JOURNAL_TOPIC = JobOption.text("journal.topic", "",
            "Compacted Kafka topic (on kafka.bootstrap-servers, created if missing) of the stage journal: every stage's model "
                    + "replies, keyed by request, stage and call, so a request processed again after a failure (or a "
                    + "resumed evaluation) re-uses them instead of asking the model; blank = no journal.");
    public static final JobOption<String> JOURNAL_RELEASE = JobOption.text("journal.release", "on-commit",
            "When a request's journal entries are dropped: on-commit (tombstones once its answer is committed) or retain "
                    + "(kept until journal.retention, so a later run can re-use them with the question option journal_of).");
    public static final JobOption<java.time.Duration> JOURNAL_RETENTION = JobOption.duration("journal.retention", "7d",
            "Longest time a journal entry is kept (the topic's retention.ms when the job creates it, and the local caches').");
    public static final JobOption<Integer> STAGE_CAPACITY = JobOption.integer("stage.capacity", 100,
            "Requests in flight per LLM stage operator instance; stage.capacity.<stage> overrides one stage.");
    public static final JobOption<java.time.Duration> STAGE_TIMEOUT = JobOption.duration("stage.timeout", "6min",
            "Time limit of one stage for one request; at least llm.total-budget (checked at start), so a call ends by its "
                    + "own budget first; when it fires, the stage's LLM calls are cancelled. stage.timeout.<stage> overrides one stage.");
    public static final JobOption<Integer> EXECUTION_POOL_SIZE = JobOption.integer("execution.pool-size", 4,
            "Threads running candidate SQL per task slot.");
    public static final JobOption<Integer> EXECUTION_CAPACITY = JobOption.integer("execution.capacity", 200,
            "Candidate executions in flight per execution operator instance.");
    public static final JobOption<java.time.Duration> EXECUTION_TIMEOUT = JobOption.duration("execution.timeout", "30s",
            "Flink-side limit of one candidate execution.");
    public static final JobOption<java.time.Duration> GATHER_TIMEOUT = JobOption.duration("execution.gather-timeout", "60s",
            "How long a request's candidates are waited for after its fan-out; those still missing count as failed (timed out).");
    public static final JobOption<java.time.Duration> QUERY_TIMEOUT = JobOption.duration("sql.query-timeout", "10s",
            "Budget of one SQL statement: the guard's parse, execution, reading the result and its fingerprint for the vote (each stopped when it runs out).");
    public static final JobOption<Integer> MAX_ROWS = JobOption.integer("sql.max-rows", 1000,
            "Rows fetched per query at most.");
    public static final JobOption<String> SHARED_DATA = JobOption.text("data.shared", "../shared/data",
            "Benchmark data folder with Spider's (and BIRD's) layout; its databases are used unless data.database-roots is set.");
    public static final JobOption<List<String>> DATABASE_ROOTS = JobOption.list("data.database-roots", "",
            "Comma-separated folders holding <db>/<db>.sqlite; overrides data.shared.");
    public static final JobOption<List<String>> TABLES_JSON = JobOption.list("data.tables-json", "",
            "Comma-separated Spider/BIRD tables.json files that go with data.database-roots.");
    public static final JobOption<java.time.Duration> HISTORY_TTL = JobOption.duration("dialogue.history-ttl", "24h",
            "How long a dialogue's history is kept after its last turn.");
    public static final JobOption<java.time.Duration> REQUEST_ID_TTL = JobOption.duration("requests.id-ttl", "24h",
            "How long a request id is remembered after its answer: a question repeating it meanwhile is dead-lettered "
                    + "(duplicate_request_id), later it is a new question.");
    public static final JobOption<Integer> HISTORY_MAX_TURNS = JobOption.integer("dialogue.history-max-turns", 8,
            "Earlier turns of a dialogue kept and shown to the stages (the newest); older ones are dropped.");
    public static final JobOption<Integer> HISTORY_MAX_BYTES = JobOption.integer("dialogue.history-max-bytes", 16384,
            "Most bytes (UTF-8 of question, SQL and summary) of the kept turns of one dialogue; the oldest go first.");
    public static final JobOption<String> FEEDBACK_ISOLATION = JobOption.text("dialogue.feedback-isolation", "read_uncommitted",
            "How the job reads its own answers back for the next turn of a dialogue: read_uncommitted (the next turn starts "
                    + "when the answer is written, not one checkpoint later; answers stay exactly once, docs/ARCHITECTURE.md) "
                    + "or read_committed (the next turn sees only committed answers).");
    public static final JobOption<java.time.Duration> FEEDBACK_WAIT = JobOption.duration("dialogue.feedback-wait", "5min",
            "How long a follow-up waits for the previous turn's answer before it is answered anyway.");

    // --- Agents
    public static final JobOption<Integer> AGENT_CANDIDATES = JobOption.integer("agents.candidates", AGENT_DEFAULTS.candidates,
            "Candidates a sampling generator (OpenSearch-SQL) asks for per question.");
    public static final JobOption<Double> AGENT_TEMPERATURE = JobOption.decimal("agents.temperature", AGENT_DEFAULTS.temperature,
            "Sampling temperature of multi-candidate generation (0 to 2).");
    public static final JobOption<Integer> AGENT_LINK_SKIP_COLUMNS = JobOption.integer("agents.link-skip-columns",
            AGENT_DEFAULTS.linkSkipColumnThreshold,
            "MAG-SQL: schemas with at most this many columns skip schema linking and are shown in full.");
    public static final JobOption<Integer> AGENT_MAG_REFINE_ROUNDS = JobOption.integer("agents.mag-refine-rounds",
            AGENT_DEFAULTS.magRefineRounds, "MAG-SQL: refinement rounds per sub-SQL (0 = none).");
    public static final JobOption<Integer> AGENT_OPENSEARCH_CORRECT_ROUNDS = JobOption.integer("agents.opensearch-correct-rounds",
            AGENT_DEFAULTS.opensearchCorrectRounds, "OpenSearch-SQL: correction rounds per candidate with an execution problem (0 = none).");
    public static final JobOption<Integer> AGENT_SQLFIX_CRAFTER_K = JobOption.integer("agents.sqlfix-crafter-k",
            AGENT_DEFAULTS.sqlfixCrafterK, "SQLFixAgent: paraphrases (and candidates) the query crafter writes (at least 1).");
    public static final JobOption<Integer> AGENT_SQLFIX_REFINE_ATTEMPTS = JobOption.integer("agents.sqlfix-refine-attempts",
            AGENT_DEFAULTS.sqlfixRefineAttempts, "SQLFixAgent: attempts of the refiner (at least 1).");
    public static final JobOption<String> AGENT_FEWSHOT_LIBRARY = JobOption.text("agents.fewshot-library", "",
            "OpenSearch-SQL's few-shot example library (JSON lines, built by `eval.sh fewshot-library`); blank = the "
                    + "generator's two fixed examples.");
    public static final JobOption<Integer> AGENT_FEWSHOT_EXAMPLES = JobOption.integer("agents.fewshot-examples",
            AGENT_DEFAULTS.fewShotExamples, "OpenSearch-SQL: examples retrieved per question from the library.");
    public static final JobOption<String> AGENT_REPAIR_MEMORY = JobOption.text("agents.repair-memory", "",
            "SQLFixAgent's repair memory file (JSON lines, loaded at start, appended per repair, kept across requests and "
                    + "restarts); blank = in memory only, lost when the TaskManager stops.");
    public static final JobOption<Boolean> AGENT_REPAIR_MEMORY_LEARN = JobOption.flag("agents.repair-memory-learn",
            AGENT_DEFAULTS.repairMemoryLearns, "SQLFixAgent: add the run's repairs to the memory; false uses only the repairs "
                    + "loaded at start, so a run replayed from llm.cache-dir sends exactly the prompts it recorded.");
    public static final JobOption<Boolean> AGENT_ALIGN_VALUES = JobOption.flag("agents.align.values", AGENT_DEFAULTS.alignValues,
            "OpenSearch-SQL alignment: a text literal missing from its column becomes the closest value that exists there.");
    public static final JobOption<Boolean> AGENT_ALIGN_MAX_SUBQUERY = JobOption.flag("agents.align.max-subquery",
            AGENT_DEFAULTS.alignMaxSubqueryToOrderBy,
            "OpenSearch-SQL alignment: rewrite a MAX/MIN subquery to ORDER BY … LIMIT 1.");
    public static final JobOption<Boolean> AGENT_ALIGN_NOT_NULL = JobOption.flag("agents.align.not-null",
            AGENT_DEFAULTS.alignNotNullOnOrderBy, "OpenSearch-SQL alignment: ORDER BY a nullable column with LIMIT gets column IS NOT NULL.");
    public static final JobOption<Boolean> AGENT_ALIGN_NULL_COMPARISON = JobOption.flag("agents.align.null-comparison",
            AGENT_DEFAULTS.alignNullComparison, "Rewrite x = NULL / x <> NULL (never true) to x IS NULL / x IS NOT NULL.");

    /** Prefixes of per-stage families (key = prefix + stage name). */
    public static final List<String> STAGE_FAMILIES = List.of("llm.model.", "llm.max-tokens.", "stage.capacity.",
            "stage.timeout.");

    /**
     * Prefix of Kafka client properties passed through to the job's sources and sinks as they are, e.g.
     * {@code kafka.client.security.protocol=SASL_SSL}, {@code kafka.client.sasl.jaas.config=...},
     * {@code kafka.client.ssl.truststore.location=...} (see docs/OPERATIONS.md).
     */
    public static final String KAFKA_CLIENT_PREFIX = "kafka.client.";

    /** Every prefix an option key may start with: the per-stage families and the Kafka client pass-through. */
    public static final List<String> FAMILIES = java.util.stream.Stream.concat(STAGE_FAMILIES.stream(),
            java.util.stream.Stream.of(KAFKA_CLIENT_PREFIX)).toList();

    public static List<JobOption<?>> all() {
        return List.of(BOOTSTRAP_SERVERS, QUESTIONS_TOPIC, ANSWERS_TOPIC, DEAD_LETTERS_TOPIC, GROUP_ID, STARTING_OFFSETS,
                MAX_RECORD_BYTES, DEAD_LETTER_EXCERPT_BYTES,
                TRANSACTIONAL_ID_PREFIX, TRANSACTION_TIMEOUT, JOB_NAME, CHECKPOINT_INTERVAL, CHECKPOINT_DIR, PARALLELISM,
                MAX_PARALLELISM, SOURCE_PARALLELISM, STRATEGY, LLM_BASE_URL, LLM_API_KEY, LLM_MODEL, LLM_SERVER_SLOTS, LLM_MAX_CONCURRENCY, LLM_TIMEOUT,
                LLM_MAX_RETRIES, LLM_RETRY_WINDOW, LLM_STRUCTURED_OUTPUT, LLM_MAX_TOKENS, LLM_CONTEXT_TOKENS, LLM_REQUESTS_PER_MINUTE, LLM_TOKENS_PER_MINUTE, LLM_TOTAL_BUDGET, LLM_CACHE_DIR,
                LLM_CACHE_MODE, JOURNAL_TOPIC, JOURNAL_RELEASE, JOURNAL_RETENTION, STAGE_CAPACITY, STAGE_TIMEOUT, EXECUTION_POOL_SIZE, EXECUTION_CAPACITY, EXECUTION_TIMEOUT,
                GATHER_TIMEOUT, QUERY_TIMEOUT, MAX_ROWS, SHARED_DATA, DATABASE_ROOTS, TABLES_JSON, HISTORY_TTL, REQUEST_ID_TTL, HISTORY_MAX_TURNS, HISTORY_MAX_BYTES,
                FEEDBACK_ISOLATION, FEEDBACK_WAIT,
                AGENT_CANDIDATES, AGENT_TEMPERATURE, AGENT_LINK_SKIP_COLUMNS, AGENT_MAG_REFINE_ROUNDS, AGENT_OPENSEARCH_CORRECT_ROUNDS, AGENT_SQLFIX_CRAFTER_K,
                AGENT_SQLFIX_REFINE_ATTEMPTS, AGENT_FEWSHOT_LIBRARY, AGENT_FEWSHOT_EXAMPLES, AGENT_REPAIR_MEMORY, AGENT_REPAIR_MEMORY_LEARN, AGENT_ALIGN_VALUES, AGENT_ALIGN_MAX_SUBQUERY,
                AGENT_ALIGN_NOT_NULL, AGENT_ALIGN_NULL_COMPARISON);
    }

    /** The options as a Markdown table (key, type, default, description). */
    public static String markdownTable() {
        StringBuilder out = new StringBuilder("| key | type | default | description |\n|---|---|---|---|\n");
        for (JobOption<?> o : all()) {
            out.append("| `").append(o.key()).append("` | ").append(o.type()).append(" | ")
                    .append(o.defaultValue().isEmpty() ? "" : "`" + o.defaultValue() + "`").append(" | ")
                    .append(o.description().replace("|", "\\|")).append(" |\n");
        }
        return out.toString();
    }
}

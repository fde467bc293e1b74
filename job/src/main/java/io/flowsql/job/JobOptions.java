package io.flowsql.job;

import io.flowsql.config.OptionFamily;
import io.flowsql.config.kafka.KafkaOptions;
import io.flowsql.config.access.AccessOptions;
import io.flowsql.config.databases.DatabaseOptions;
import io.flowsql.config.sql.SqlOptions;

import io.flowsql.agents.common.AgentSettings;
import io.flowsql.config.feedback.FeedbackOptions;
import io.flowsql.config.journal.JournalOptions;
import io.flowsql.config.journal.JournalRelease;
import io.flowsql.config.llm.CacheMode;
import io.flowsql.config.llm.EmbeddingEncoding;
import io.flowsql.config.llm.LlmOptions;
import io.flowsql.config.llm.StructuredOutput;
import io.flowsql.config.pacing.PacingOptions;
import io.flowsql.job.kafka.StartingOffsets;
import io.flowsql.engine.StageRegistry;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.kafka.common.IsolationLevel;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * Every option of the job as a Flink {@link ConfigOption} (key, type, default, description), read with
 * {@code config.get(JobOptions.X)}: the job's own options are declared here, each room's (kafka, sql, databases,
 * access, llm, journal, feedback, pacing: io.flowsql.config.*) where the room declares it, named here in table
 * order; {@code --print-options} and docs/OPERATIONS.md's table are generated from {@link #all()} and
 * {@link #families()} ({@link OptionsTable}).
 */
public final class JobOptions {
    private JobOptions() {}

    /** The agents' defaults, so the options' defaults and AgentSettings never disagree. */
    private static final AgentSettings AGENT_DEFAULTS = AgentSettings.defaults();

    // --- Kafka: the room's own options (KafkaOptions, shared with the console), then the job's
    public static final ConfigOption<String> BOOTSTRAP_SERVERS = KafkaOptions.BOOTSTRAP_SERVERS;
    public static final ConfigOption<String> KAFKA_CLIENT_FILE = KafkaOptions.KAFKA_CLIENT_FILE;
    public static final ConfigOption<String> QUESTIONS_TOPIC = KafkaOptions.QUESTIONS_TOPIC;
    public static final ConfigOption<String> ANSWERS_TOPIC = KafkaOptions.ANSWERS_TOPIC;
    public static final ConfigOption<String> DEAD_LETTERS_TOPIC = KafkaOptions.DEAD_LETTERS_TOPIC;
    public static final ConfigOption<String> FEEDBACK_TOPIC = KafkaOptions.FEEDBACK_TOPIC;
    public static final ConfigOption<String> KNOWLEDGE_TOPIC = KafkaOptions.KNOWLEDGE_TOPIC;
    public static final ConfigOption<String> GROUP_ID = ConfigOptions.key("kafka.group-id")
            .stringType().defaultValue("flowsql-job")
            .withDescription("Consumer group of the question source (the feedback source uses <group-id>-feedback).");
    public static final ConfigOption<StartingOffsets> STARTING_OFFSETS = ConfigOptions.key("kafka.starting-offsets")
            .enumType(StartingOffsets.class).defaultValue(StartingOffsets.COMMITTED_OR_EARLIEST)
            .withDescription("Where a fresh job starts reading questions: committed-or-earliest, earliest or latest.");
    public static final ConfigOption<String> TRANSACTIONAL_ID_PREFIX = ConfigOptions.key("kafka.transactional-id-prefix")
            .stringType().defaultValue("flowsql")
            .withDescription("Prefix of the sinks' transactional ids; unique per job writing to the same cluster.");
    public static final ConfigOption<Duration> TRANSACTION_TIMEOUT = ConfigOptions.key("kafka.transaction-timeout")
            .durationType().defaultValue(Duration.ofMinutes(15))
            .withDescription("transaction.timeout.ms of the exactly-once sinks; must exceed the checkpoint interval and not exceed the brokers' transaction.max.timeout.ms (read from them at start; a larger value stops the start naming both).");

    public static final ConfigOption<Integer> MAX_RECORD_BYTES = ConfigOptions.key("questions.max-record-bytes")
            .intType().defaultValue(128 * 1024)
            .withDescription("A question record's size at most; a larger one is a dead letter (too_large) with a bounded excerpt.");
    public static final ConfigOption<Integer> DEAD_LETTER_EXCERPT_BYTES = ConfigOptions.key("dead-letters.max-excerpt-bytes")
            .intType().defaultValue(4096)
            .withDescription("Bytes of a refused record's value kept in its dead letter at most, once JSON-escaped (plus its size and SHA-256).");

    // --- Flink
    public static final ConfigOption<String> JOB_NAME = ConfigOptions.key("job.name")
            .stringType().defaultValue("FlowSQL")
            .withDescription("Flink job name.");
    public static final ConfigOption<Duration> CHECKPOINT_INTERVAL = ConfigOptions.key("job.checkpoint-interval")
            .durationType().defaultValue(Duration.ofMillis(500))
            .withDescription("Checkpoint interval; answers become visible to read_committed readers at each checkpoint (chosen from "
                    + "measurements: docs/MEASUREMENTS.md).");
    public static final ConfigOption<Duration> CHECKPOINT_MIN_PAUSE = ConfigOptions.key("job.checkpoint-min-pause")
            .durationType().defaultValue(Duration.ofMillis(100))
            .withDescription("Least time from one checkpoint's end to the next one's start (Flink's "
                    + "execution.checkpointing.min-pause; at most job.checkpoint-interval). Above 0, checkpoints slower "
                    + "than the interval do not pile up requests that then run back to back, which would also keep an "
                    + "idle job checkpointing at the short interval (docs/MEASUREMENTS.md, idle cost).");
    public static final ConfigOption<String> CHECKPOINT_DIR = ConfigOptions.key("job.checkpoint-dir")
            .stringType().defaultValue("")
            .withDescription("Durable checkpoint folder/URI (execution.checkpointing.dir); blank keeps checkpoints in the JobManager.");
    public static final ConfigOption<Integer> PARALLELISM = ConfigOptions.key("job.parallelism")
            .intType().defaultValue(0)
            .withDescription("Parallelism of every operator; 0 keeps the environment's default.");
    public static final ConfigOption<Duration> CHECKPOINT_INTERVAL_IDLE = PacingOptions.CHECKPOINT_INTERVAL_IDLE;
    public static final ConfigOption<Duration> IDLE_AFTER = PacingOptions.IDLE_AFTER;
    public static final ConfigOption<Boolean> UNALIGNED_CHECKPOINTS = ConfigOptions.key("job.unaligned-checkpoints")
            .booleanType().defaultValue(false)
            .withDescription("Unaligned checkpoints (Flink's execution.checkpointing.unaligned.enabled): barriers overtake "
                    + "buffered records under backpressure; measured in docs/MEASUREMENTS.md (idle cost and checkpoints).");
    public static final ConfigOption<Duration> BUFFER_TIMEOUT = ConfigOptions.key("job.buffer-timeout")
            .durationType().defaultValue(Duration.ZERO)
            .withDescription("Longest a record waits in a network buffer between operators before it is sent (Flink's "
                    + "execution.buffer-timeout.interval, default there 100 ms). 0 = each record is sent as it is written, "
                    + "with no flusher thread waking every subtask while the job is idle: a question is one record per "
                    + "hop, so batching saves nothing at this job's rates (measured: docs/MEASUREMENTS.md, idle cost).");
    public static final ConfigOption<StateBackendChoice> STATE_BACKEND = ConfigOptions.key("job.state-backend")
            .enumType(StateBackendChoice.class).defaultValue(StateBackendChoice.CLUSTER)
            .withDescription("Where keyed state lives: cluster (the Flink configuration's state.backend.type: RocksDB in the "
                    + "shipped cluster configs, the heap in-process), rocksdb (local disk, incremental checkpoints: a "
                    + "checkpoint costs what changed since the last) or hashmap (JVM heap: every checkpoint writes all the "
                    + "state, which grows with a day of dialogues and request ids; a warning at start says so).");
    public static final ConfigOption<StateChangelogChoice> STATE_CHANGELOG = ConfigOptions.key("job.state-changelog")
            .enumType(StateChangelogChoice.class).defaultValue(StateChangelogChoice.AUTO)
            .withDescription("Flink's changelog for the keyed state (state.changelog.enabled): each checkpoint writes only the "
                    + "state changes since the last one, and the whole state is written again only every "
                    + "job.state-materialize-interval. auto (the default) turns it on for an in-process run (--local, the "
                    + "benchmarks) with keyed state on the heap and job.checkpoint-dir set, and leaves it off otherwise; "
                    + "true needs a checkpoint folder (job.checkpoint-dir or the cluster's), and on a cluster the "
                    + "TaskManagers' state.changelog.storage and state.changelog.dstl.dfs.base-path (in-process: <checkpoint "
                    + "folder>/changelog). Cuts the heap backend's checkpoint CPU, which otherwise follows a day of state.");
    public static final ConfigOption<Duration> STATE_MATERIALIZE_INTERVAL = ConfigOptions.key("job.state-materialize-interval")
            .durationType().defaultValue(Duration.ofMinutes(1))
            .withDescription("With job.state-changelog: how often the whole keyed state is written again, so that a restore "
                    + "replays at most this much changelog and each checkpoint's metadata lists at most this much of it "
                    + "(state.changelog.periodic-materialize.interval; Flink's default, 10 min, let that list grow to 1,200 "
                    + "checkpoints' worth).");
    public static final ConfigOption<Integer> MAX_PARALLELISM = ConfigOptions.key("job.max-parallelism")
            .intType().defaultValue(128)
            .withDescription("Most parallelism the job can ever be rescaled to (Flink's key groups); fixed once state exists: a savepoint "
                    + "restores only into a job with the same value.");
    public static final ConfigOption<Integer> SOURCE_PARALLELISM = ConfigOptions.key("job.source-parallelism")
            .intType().defaultValue(0)
            .withDescription("Parallelism of the Kafka sources and the parse step; 0 uses job.parallelism.");

    // --- Engine
    public static final ConfigOption<String> STRATEGY = ConfigOptions.key("engine.strategy")
            .stringType().defaultValue(StageRegistry.OPENSEARCH)
            .withDescription("Default strategy preset for questions without options.strategy ("
                    + String.join(", ", StageRegistry.presetNames()) + "; why opensearch: docs/AGENTS.md \"Default preset\").");
    public static final ConfigOption<List<String>> PRESETS = ConfigOptions.key("job.presets")
            .stringType().asList().defaultValues(StageRegistry.presetNames().toArray(String[]::new))
            .withDescription("The presets the job answers (a chain of stage operators each; fewer presets, fewer operators). "
                    + "A question naming another preset is answered as failed, error_kind unserved.");
    public static final ConfigOption<String> LLM_BASE_URL = LlmOptions.BASE_URL;
    public static final ConfigOption<String> LLM_API_KEY = LlmOptions.API_KEY;
    public static final ConfigOption<String> LLM_API_KEY_ENV = LlmOptions.API_KEY_ENV;
    public static final ConfigOption<String> LLM_API_KEY_FILE = LlmOptions.API_KEY_FILE;
    public static final ConfigOption<String> LLM_MODEL = LlmOptions.MODEL;
    public static final ConfigOption<String> LLM_EMBEDDING_MODEL = LlmOptions.EMBEDDING_MODEL;
    public static final ConfigOption<EmbeddingEncoding> LLM_EMBEDDING_ENCODING = LlmOptions.EMBEDDING_ENCODING;
    public static final ConfigOption<Integer> LLM_SERVER_SLOTS = LlmOptions.SERVER_SLOTS;
    public static final ConfigOption<Integer> LLM_MAX_CONCURRENCY = LlmOptions.MAX_CONCURRENCY;
    public static final ConfigOption<Duration> LLM_QUEUE_BUDGET = LlmOptions.QUEUE_BUDGET;
    public static final ConfigOption<Duration> LLM_TIMEOUT = LlmOptions.REQUEST_TIMEOUT;
    public static final ConfigOption<Integer> LLM_MAX_RETRIES = LlmOptions.MAX_RETRIES;
    public static final ConfigOption<Duration> LLM_RETRY_WINDOW = LlmOptions.RETRY_WINDOW;
    public static final ConfigOption<StructuredOutput> LLM_STRUCTURED_OUTPUT = LlmOptions.STRUCTURED_OUTPUT;
    public static final ConfigOption<String> LLM_REPLY_OVERLAY = LlmOptions.REPLY_OVERLAY;
    public static final ConfigOption<Integer> LLM_MAX_TOKENS = LlmOptions.MAX_TOKENS;
    public static final ConfigOption<Integer> LLM_CONTEXT_TOKENS = LlmOptions.CONTEXT_TOKENS;
    public static final ConfigOption<Integer> LLM_REQUESTS_PER_MINUTE = LlmOptions.REQUESTS_PER_MINUTE;
    public static final ConfigOption<Integer> LLM_TOKENS_PER_MINUTE = LlmOptions.TOKENS_PER_MINUTE;
    public static final ConfigOption<Duration> LLM_TOTAL_BUDGET = LlmOptions.TOTAL_BUDGET;
    public static final ConfigOption<String> LLM_CACHE_DIR = LlmOptions.CACHE_DIR;
    public static final ConfigOption<CacheMode> LLM_CACHE_MODE = LlmOptions.CACHE_MODE;
    public static final ConfigOption<String> JOURNAL_TOPIC = JournalOptions.TOPIC;
    public static final ConfigOption<JournalRelease> JOURNAL_RELEASE = JournalOptions.RELEASE;
    public static final ConfigOption<Duration> JOURNAL_RETENTION = JournalOptions.RETENTION;
    public static final ConfigOption<Integer> JOURNAL_CACHE_MAX_ENTRIES = JournalOptions.CACHE_MAX_ENTRIES;
    public static final ConfigOption<MemorySize> JOURNAL_CACHE_MAX_BYTES = JournalOptions.CACHE_MAX_BYTES;
    public static final ConfigOption<Integer> STAGE_CAPACITY = ConfigOptions.key("stage.capacity")
            .intType().defaultValue(100)
            .withDescription("Requests in flight per LLM stage operator instance; stage.capacity.<stage> overrides one stage.");
    public static final ConfigOption<Duration> STAGE_TIMEOUT = ConfigOptions.key("stage.timeout")
            .durationType().defaultValue(Duration.ofMinutes(6))
            .withDescription("Time limit of one stage for one request; at least llm.total-budget (checked at start), so a call ends by its "
                    + "own budget first; when it fires, the stage's LLM calls are cancelled. stage.timeout.<stage> overrides one stage.");
    public static final ConfigOption<Duration> SQL_FUNCTION_TIMEOUT = ConfigOptions.key("sql-function.timeout")
            .durationType().defaultValue(Duration.ofSeconds(150))
            .withDescription("Flink SQL's TEXT_TO_SQL: time limit of one question, all stages together; when it fires, the "
                    + "running stage is cancelled and the row says failed/timeout. Keep it below the planner's "
                    + "table.exec.async-table.timeout (3 min by default), which would fail the job instead.");
    public static final ConfigOption<Integer> EXECUTION_POOL_SIZE = ConfigOptions.key("execution.pool-size")
            .intType().defaultValue(4)
            .withDescription("Threads running candidate SQL per task slot.");
    public static final ConfigOption<Integer> EXECUTION_CAPACITY = ConfigOptions.key("execution.capacity")
            .intType().defaultValue(200)
            .withDescription("Candidate executions in flight per execution operator instance.");
    public static final ConfigOption<Duration> EXECUTION_TIMEOUT = ConfigOptions.key("execution.timeout")
            .durationType().defaultValue(Duration.ofSeconds(30))
            .withDescription("Flink-side limit of one candidate execution.");
    public static final ConfigOption<Duration> GATHER_TIMEOUT = ConfigOptions.key("execution.gather-timeout")
            .durationType().defaultValue(Duration.ofSeconds(60))
            .withDescription("How long a request's candidates are waited for after its fan-out; those still missing count as failed (timed out).");
    public static final ConfigOption<Duration> QUERY_TIMEOUT = SqlOptions.QUERY_TIMEOUT;
    public static final ConfigOption<Integer> MAX_ROWS = SqlOptions.MAX_ROWS;
    public static final ConfigOption<String> SHARED_DATA = DatabaseOptions.SHARED_DATA;
    public static final ConfigOption<List<String>> DATABASE_ROOTS = DatabaseOptions.DATABASE_ROOTS;
    public static final ConfigOption<List<String>> TABLES_JSON = DatabaseOptions.TABLES_JSON;
    public static final ConfigOption<Duration> HISTORY_TTL = ConfigOptions.key("dialogue.history-ttl")
            .durationType().defaultValue(Duration.ofHours(24))
            .withDescription("How long a dialogue's history is kept after its last turn.");
    public static final ConfigOption<Duration> REQUEST_ID_TTL = ConfigOptions.key("requests.id-ttl")
            .durationType().defaultValue(Duration.ofHours(24))
            .withDescription("How long a request id is remembered after its answer: a question repeating it in the same dialogue "
                    + "meanwhile is dead-lettered (duplicate_request_id), later it is a new question; ids are checked per dialogue.");
    public static final ConfigOption<Integer> REQUEST_RECHECK_ANSWERS = ConfigOptions.key("requests.recheck-answers")
            .intType().defaultValue(1000)
            .withDescription("A job started without state first reads the last this many answers of each answers partition: a question "
                    + "among them read again (an earlier job stopped after its answers' commit, before its question offsets') is "
                    + "dead-lettered (duplicate_request_id), not answered twice. The Flink SQL path's FLOWSQL_ANSWER reads them at "
                    + "each start. 0 = not read.");
    public static final ConfigOption<Integer> HISTORY_MAX_TURNS = ConfigOptions.key("dialogue.history-max-turns")
            .intType().defaultValue(8)
            .withDescription("Earlier turns of a dialogue kept and shown to the stages (the newest); older ones are dropped.");
    public static final ConfigOption<Integer> HISTORY_MAX_BYTES = ConfigOptions.key("dialogue.history-max-bytes")
            .intType().defaultValue(16384)
            .withDescription("Most bytes (UTF-8 of question, SQL and summary) of the kept turns of one dialogue; the oldest go first.");
    public static final ConfigOption<Integer> DIALOGUE_MAX_WAITING = ConfigOptions.key("dialogue.max-waiting")
            .intType().defaultValue(100)
            .withDescription("Most turns of one dialogue waiting behind the turn being answered; a turn beyond them is dead-lettered "
                    + "(dialogue_queue_full) instead of queued.");
    public static final ConfigOption<IsolationLevel> FEEDBACK_ISOLATION = ConfigOptions.key("dialogue.feedback-isolation")
            .enumType(IsolationLevel.class).defaultValue(IsolationLevel.READ_COMMITTED)
            .withDescription("How the job reads its own answers back for the next turn of a dialogue: read_committed (default: the next turn "
                    + "sees only committed answers, so turns stay in order across a restore) or read_uncommitted (the next "
                    + "turn starts when the answer is written, not at the commit; after a failure a turn may be answered "
                    + "again after its follow-up, docs/TOPOLOGY.md).");
    public static final ConfigOption<Duration> FEEDBACK_WAIT = ConfigOptions.key("dialogue.feedback-wait")
            .durationType().defaultValue(Duration.ofMinutes(5))
            .withDescription("How long a follow-up waits for the previous turn's answer before it is answered anyway.");

    // --- Learning from feedback
    public static final ConfigOption<Integer> FEEDBACK_MAX_PER_DATABASE = FeedbackOptions.MAX_PER_DATABASE;
    public static final ConfigOption<Integer> FEEDBACK_MAX_BYTES = FeedbackOptions.MAX_BYTES;
    public static final ConfigOption<Duration> FEEDBACK_MAX_AGE = FeedbackOptions.MAX_AGE;
    public static final ConfigOption<Integer> FEEDBACK_EXAMPLES_PER_REQUEST = FeedbackOptions.EXAMPLES_PER_REQUEST;
    public static final ConfigOption<Integer> KNOWLEDGE_MAX_PER_DATABASE = ConfigOptions.key("knowledge.max-entries-per-database")
            .intType().defaultValue(io.flowsql.knowledge.KnowledgeLimits.defaults().maxPerDatabase())
            .withDescription("Knowledge entries kept per database at most; the oldest (by record timestamp) is evicted first.");
    public static final ConfigOption<Integer> KNOWLEDGE_PER_QUESTION = ConfigOptions.key("knowledge.entries-per-question")
            .intType().defaultValue(io.flowsql.knowledge.KnowledgeLimits.defaults().perQuestion())
            .withDescription("Knowledge entries whose term a question mentions that its prompts carry at most (longer terms first).");
    public static final ConfigOption<Double> KNOWLEDGE_SIMILARITY = ConfigOptions.key("knowledge.similarity")
            .doubleType().defaultValue(0.0)
            .withDescription("Least cosine similarity (/v1/embeddings, use knowledge.similar) between a question and a knowledge entry whose term it does not mention for the entry to be used too (after the term matches, within knowledge.entries-per-question); 0: term match only.");
    public static final ConfigOption<Integer> KNOWLEDGE_SIMILARITY_CANDIDATES = ConfigOptions.key("knowledge.similarity-candidates")
            .intType().defaultValue(32)
            .withDescription("With knowledge.similarity on: a question's other knowledge entries (its database's, newest first) weighed by similarity at most.");
    public static final ConfigOption<Duration> FEEDBACK_VERDICT_WINDOW = FeedbackOptions.VERDICT_WINDOW;
    public static final ConfigOption<Duration> FEEDBACK_CHECK_TIMEOUT = FeedbackOptions.CHECK_TIMEOUT;

    // --- Agents
    public static final ConfigOption<Integer> AGENT_CANDIDATES = ConfigOptions.key("agents.candidates")
            .intType().defaultValue(AGENT_DEFAULTS.candidates)
            .withDescription("Candidates a sampling generator (OpenSearch-SQL) asks for per question.");
    public static final ConfigOption<Double> AGENT_TEMPERATURE = ConfigOptions.key("agents.temperature")
            .doubleType().defaultValue(AGENT_DEFAULTS.temperature)
            .withDescription("Sampling temperature of multi-candidate generation (0 to 2).");
    public static final ConfigOption<Integer> AGENT_LINK_SKIP_COLUMNS = ConfigOptions.key("agents.link-skip-columns")
            .intType().defaultValue(AGENT_DEFAULTS.linkSkipColumnThreshold)
            .withDescription("MAG-SQL: schemas with at most this many columns (and at most agents.link-skip-avg-columns per table) "
                    + "skip schema linking and are shown in full (the authors' code: 25).");
    public static final ConfigOption<Integer> AGENT_LINK_SKIP_AVG_COLUMNS = ConfigOptions.key("agents.link-skip-avg-columns")
            .intType().defaultValue(AGENT_DEFAULTS.linkSkipAvgColumns)
            .withDescription("MAG-SQL: schemas whose tables average more than this many columns are linked whatever their total "
                    + "(the authors' code: 5; 2147483647 = no bound).");
    public static final ConfigOption<Integer> AGENT_MAG_REFINE_ROUNDS = ConfigOptions.key("agents.mag-refine-rounds")
            .intType().defaultValue(AGENT_DEFAULTS.magRefineRounds)
            .withDescription("MAG-SQL: refinement rounds per sub-SQL (0 = none; the authors' code: 2).");
    public static final ConfigOption<Boolean> AGENT_MAG_REFINE_ON_ANY_NULL = ConfigOptions.key("agents.mag-refine-on-any-null")
            .booleanType().defaultValue(AGENT_DEFAULTS.magRefineOnAnyNull)
            .withDescription("MAG-SQL: refine a sub-SQL on any NULL in its result (false: only when the first 5 rows of a "
                    + "several-row result mix NULL and non-NULL values, as the authors' code).");
    public static final ConfigOption<Boolean> AGENT_MAG_SCHEMA_FALLBACK = ConfigOptions.key("agents.mag-schema-fallback")
            .booleanType().defaultValue(AGENT_DEFAULTS.magSchemaFallback)
            .withDescription("MAG-SQL: after a 'no such column' error show the full schema to the refiner and the later steps "
                    + "(per question: disabled_stages magsql.generate.schema-fallback).");
    public static final ConfigOption<Boolean> AGENT_MAG_NESTED_HINT = ConfigOptions.key("agents.mag-nested-hint")
            .booleanType().defaultValue(AGENT_DEFAULTS.magNestedHint)
            .withDescription("MAG-SQL: refine an empty nested query with the nested-query prompt "
                    + "(per question: disabled_stages magsql.generate.nested-hint).");
    public static final ConfigOption<Boolean> AGENT_MAG_POSTPROCESS = ConfigOptions.key("agents.mag-postprocess")
            .booleanType().defaultValue(AGENT_DEFAULTS.magPostprocess)
            .withDescription("MAG-SQL: post-process accepted sub-SQL (|| ' ' || becomes a column list, ASC LIMIT sorts NULLs last; "
                    + "per question: disabled_stages magsql.generate.postprocess).");
    public static final ConfigOption<Boolean> AGENT_MMSQL_SELECT_BY_MODEL = ConfigOptions.key("agents.mmsql-select-by-model")
            .booleanType().defaultValue(AGENT_DEFAULTS.mmsqlSelectByModel)
            .withDescription("MMSQL: the selector asks the model (ours); false: the full schema with 3 example rows per table, as the "
                    + "official code (per question: disabled_stages mmsql.select.model).");
    public static final ConfigOption<Boolean> AGENT_MMSQL_REWRITE_BY_MODEL = ConfigOptions.key("agents.mmsql-rewrite-by-model")
            .booleanType().defaultValue(AGENT_DEFAULTS.mmsqlRewriteByModel)
            .withDescription("MMSQL: the rewriter asks the model (ours); false: turns pass through, as the official code, which "
                    + "comments its rewriter out (per question: disabled_stages mmsql.rewrite).");
    public static final ConfigOption<Boolean> AGENT_MMSQL_READINGS_DECOMPOSE_REFINE = ConfigOptions.key("agents.mmsql-readings-decompose-refine")
            .booleanType().defaultValue(AGENT_DEFAULTS.mmsqlReadingsDecomposeRefine)
            .withDescription("MMSQL: an ambiguous turn's readings go through decomposer and refiner, as the authors' code; false: one "
                    + "generator call each (per question: disabled_stages mmsql.readings.decompose-refine).");
    public static final ConfigOption<Boolean> AGENT_MMSQL_READINGS_ORIGINAL_QUESTION = ConfigOptions.key("agents.mmsql-readings-original-question")
            .booleanType().defaultValue(AGENT_DEFAULTS.mmsqlReadingsOriginalQuestion)
            .withDescription("MMSQL: an ambiguous turn as written is answered after its readings, as the authors' code; false: the "
                    + "readings only (per question: disabled_stages mmsql.readings.original-question).");
    public static final ConfigOption<Integer> AGENT_OPENSEARCH_CORRECT_ROUNDS = ConfigOptions.key("agents.opensearch-correct-rounds")
            .intType().defaultValue(AGENT_DEFAULTS.opensearchCorrectRounds)
            .withDescription("OpenSearch-SQL: correction rounds per candidate with an execution problem (0 = none).");
    public static final ConfigOption<String> AGENT_OPENSEARCH_CORRECT_MODE = ConfigOptions.key("agents.opensearch-correct-mode")
            .stringType().defaultValue(AGENT_DEFAULTS.opensearchCorrectMode)
            .withDescription("OpenSearch-SQL: `regenerate` (the rounds, then a fresh generation for a candidate still failing, as "
                    + "the authors' code) or `rounds` (the rounds only); a question may choose with options.stage_modes.");
    public static final ConfigOption<Integer> AGENT_MMSQL_SELECT_ABOVE_COLUMNS = ConfigOptions
            .key("agents.mmsql-select-above-columns").intType().defaultValue(AGENT_DEFAULTS.mmsqlSelectAboveColumns)
            .withDescription("MMSQL: the selector runs on schemas of more than this many columns only (the paper: large "
                    + "schemas); 0 = on every turn.");
    public static final ConfigOption<Boolean> AGENT_OPENSEARCH_CORRECT_ON_RESULT = ConfigOptions
            .key("agents.opensearch-correct-on-result").booleanType().defaultValue(AGENT_DEFAULTS.opensearchCorrectOnResult)
            .withDescription("OpenSearch-SQL: also correct a result holding NULL or of a shape that does not fit the question "
                    + "(earlier rule); false: errors and empty results only, as the authors' code.");
    public static final ConfigOption<Boolean> AGENT_OPENSEARCH_ADHERENCE = ConfigOptions.key("agents.opensearch-adherence")
            .booleanType().defaultValue(AGENT_DEFAULTS.opensearchAdherence)
            .withDescription("OpenSearch-SQL: run opensearch.adherence (a step of ours the authors' code does not have).");
    public static final ConfigOption<String> AGENT_OPENSEARCH_ALIGN_MODE = ConfigOptions.key("agents.opensearch-align-mode")
            .stringType().defaultValue(AGENT_DEFAULTS.opensearchAlignMode)
            .withDescription("OpenSearch-SQL alignment: `model` (style, function and agent checks, the model resolves what "
                    + "they find, as the authors' code) or `rules` (the four agents.align.* rules, no model); a question may "
                    + "choose with options.stage_modes.");
    public static final ConfigOption<String> AGENT_SUMMARIZE_PRESETS = ConfigOptions.key("agents.summarize-presets")
            .stringType().defaultValue(AGENT_DEFAULTS.summarizePresets)
            .withDescription("Presets (comma-separated) whose answers carry a plain-language summary (stage answer.summarize, "
                    + "one model call per answer) unless the question sets options.summarize false; empty: only questions "
                    + "that set options.summarize true get one.");
    public static final ConfigOption<Integer> AGENT_SQLFIX_CRAFTER_K = ConfigOptions.key("agents.sqlfix-crafter-k")
            .intType().defaultValue(AGENT_DEFAULTS.sqlfixCrafterK)
            .withDescription("SQLFixAgent: paraphrases (and candidates) the query crafter writes (at least 1).");
    public static final ConfigOption<Integer> AGENT_SQLFIX_REFINE_ATTEMPTS = ConfigOptions.key("agents.sqlfix-refine-attempts")
            .intType().defaultValue(AGENT_DEFAULTS.sqlfixRefineAttempts)
            .withDescription("SQLFixAgent: attempts of the refiner (at least 1).");
    public static final ConfigOption<Boolean> AGENT_SQLFIX_CRAFT_PER_ATTEMPT = ConfigOptions.key("agents.sqlfix-craft-per-attempt")
            .booleanType().defaultValue(AGENT_DEFAULTS.sqlfixCraftPerAttempt)
            .withDescription("SQLFixAgent: the query crafter writes fresh paraphrases, told why the earlier attempts failed, "
                    + "before every refinement attempt after the first (the paper); false: crafted once for every attempt.");
    public static final ConfigOption<String> AGENT_FEWSHOT_LIBRARY = ConfigOptions.key("agents.fewshot-library")
            .stringType().defaultValue("")
            .withDescription("OpenSearch-SQL's few-shot example library (JSON lines, built by `eval.sh fewshot-library`); blank = the "
                    + "generator's two fixed examples.");
    public static final ConfigOption<Integer> AGENT_FEWSHOT_EXAMPLES = ConfigOptions.key("agents.fewshot-examples")
            .intType().defaultValue(AGENT_DEFAULTS.fewShotExamples)
            .withDescription("OpenSearch-SQL: examples retrieved per question from the library.");
    public static final ConfigOption<String> AGENT_FEWSHOT_SOURCES = ConfigOptions.key("agents.fewshot-sources")
            .stringType().defaultValue(AGENT_DEFAULTS.fewShotSources)
            .withDescription("OpenSearch-SQL: dialogue files in the SParC/CoSQL layout (comma-separated, e.g. "
                    + "cosql/sparc_dev_SQLonly.json,cosql/cosql_dev_SQLonly.json under data.shared) whose first turns make "
                    + "the few-shot library at first start, written to agents.fewshot-library when that file does not exist "
                    + "yet (kept in memory when it is blank); blank = none.");
    public static final ConfigOption<Boolean> AGENT_FEWSHOT_OTHER_DATABASES_ONLY = ConfigOptions.key("agents.fewshot-other-databases-only")
            .booleanType().defaultValue(AGENT_DEFAULTS.fewShotOtherDatabasesOnly)
            .withDescription("OpenSearch-SQL: never choose a library example of the question's own database (the authors' "
                    + "examples come from a training set with other databases); false suits a library learned from your own "
                    + "databases.");
    public static final ConfigOption<String> AGENT_REPAIR_MEMORY = ConfigOptions.key("agents.repair-memory")
            .stringType().defaultValue("")
            .withDescription("SQLFixAgent's repair memory file (JSON lines, loaded at start, appended per repair, kept across requests and "
                    + "restarts); blank = in memory only, lost when the TaskManager stops.");
    public static final ConfigOption<String> AGENT_REPAIR_MEMORY_SEED = ConfigOptions.key("agents.repair-memory-seed")
            .stringType().defaultValue("")
            .withDescription("SQLFixAgent: verified repairs the memory starts with (JSON lines written by `eval.sh repair-memory` "
                    + "from published Spider dev predictions whose result differs from the gold one, the gold SQL as the fix); "
                    + "read only, never appended to; blank = none.");
    public static final ConfigOption<Boolean> AGENT_REPAIR_SEED_OTHER_DATABASES_ONLY = ConfigOptions.key("agents.repair-memory-seed-other-databases-only")
            .booleanType().defaultValue(AGENT_DEFAULTS.repairSeedOtherDatabasesOnly)
            .withDescription("SQLFixAgent: never show a seeded repair of the question's own database (the seeds hold the gold "
                    + "SQL of the databases they were built from); false suits seeds built from your own databases.");
    public static final ConfigOption<Boolean> AGENT_REPAIR_MEMORY_LEARN = ConfigOptions.key("agents.repair-memory-learn")
            .booleanType().defaultValue(AGENT_DEFAULTS.repairMemoryLearns)
            .withDescription("SQLFixAgent: add the run's repairs to the memory; false uses only the repairs "
                    + "loaded at start, so a run replayed from llm.cache-dir sends exactly the prompts it recorded.");
    public static final ConfigOption<Boolean> AGENT_ALIGN_VALUES = ConfigOptions.key("agents.align.values")
            .booleanType().defaultValue(AGENT_DEFAULTS.alignValues)
            .withDescription("OpenSearch-SQL alignment: a text literal missing from its column becomes the closest value that exists there.");
    public static final ConfigOption<Boolean> AGENT_ALIGN_MAX_SUBQUERY = ConfigOptions.key("agents.align.max-subquery")
            .booleanType().defaultValue(AGENT_DEFAULTS.alignMaxSubqueryToOrderBy)
            .withDescription("OpenSearch-SQL alignment: rewrite a MAX/MIN subquery to ORDER BY … LIMIT 1.");
    public static final ConfigOption<Boolean> AGENT_ALIGN_NOT_NULL = ConfigOptions.key("agents.align.not-null")
            .booleanType().defaultValue(AGENT_DEFAULTS.alignNotNullOnOrderBy)
            .withDescription("OpenSearch-SQL alignment: ORDER BY a nullable column with LIMIT gets column IS NOT NULL.");
    public static final ConfigOption<Boolean> AGENT_ALIGN_NULL_COMPARISON = ConfigOptions.key("agents.align.null-comparison")
            .booleanType().defaultValue(AGENT_DEFAULTS.alignNullComparison)
            .withDescription("Rewrite x = NULL / x <> NULL (never true) to x IS NULL / x IS NOT NULL.");

    // --- Schema retrieval and access policies (docs/DATABASE.md#retrieval-tenants-and-budgets)
    public static final ConfigOption<Integer> SCHEMA_TOKEN_BUDGET = ConfigOptions.key("schema.token-budget")
            .intType().defaultValue(AGENT_DEFAULTS.schemaTokenBudget)
            .withDescription("Tokens the schema in one prompt may take: schema.retrieve keeps the question's best tables "
                    + "under it; a whole schema that fits is shown uncut (every Spider dev schema fits the default).");
    public static final ConfigOption<Duration> SCHEMA_REFRESH_INTERVAL = ConfigOptions.key("schema.refresh-interval")
            .durationType().defaultValue(Duration.ofMillis(AGENT_DEFAULTS.schemaRefreshMillis))
            .withDescription("How old a database's cached schema may get before the catalog reads it again (tables added "
                    + "or dropped appear in or leave retrieval without a restart); 0 = never.");
    public static final ConfigOption<String> TENANT_FROM_DIALOGUE_ID = AccessOptions.TENANT_FROM_DIALOGUE_ID;

    // --- Families: one key per stage (or per Kafka client property), prefix + name
    public static final OptionFamily<String> LLM_MODEL_BY_STAGE = LlmOptions.MODEL_BY_STAGE;
    public static final OptionFamily<String> LLM_EMBEDDING_MODEL_BY_USE = LlmOptions.EMBEDDING_MODEL_BY_USE;
    public static final OptionFamily<Integer> MAX_TOKENS_BY_STAGE = LlmOptions.MAX_TOKENS_BY_STAGE;
    public static final OptionFamily<String> LLM_SAMPLING_BY_STAGE = LlmOptions.SAMPLING_BY_STAGE;
    public static final OptionFamily<Integer> CAPACITY_BY_STAGE = OptionFamily.of("stage.capacity.", "<stage>",
            Integer.class, "Requests in flight per operator instance of one stage (overrides stage.capacity).");
    public static final OptionFamily<Duration> TIMEOUT_BY_STAGE = OptionFamily.of("stage.timeout.", "<stage>",
            Duration.class, "Time limit of one stage (overrides stage.timeout; at least llm.total-budget).");
    public static final OptionFamily<String> KAFKA_CLIENT = KafkaOptions.KAFKA_CLIENT;

    /** The databases room (DatabaseOptions): databases declared by id beside the SQLite folders. */
    public static final OptionFamily<String> DATABASES = DatabaseOptions.DATABASES;

    /** The access room (AccessOptions): which databases and tables a tenant may ask. */
    public static final OptionFamily<String> TENANTS = AccessOptions.TENANTS;

    public static final String KAFKA_CLIENT_PREFIX = KafkaOptions.KAFKA_CLIENT_PREFIX;

    /** Every family an option key may belong to. */
    public static List<OptionFamily<?>> families() {
        return List.of(LLM_MODEL_BY_STAGE, LLM_EMBEDDING_MODEL_BY_USE, MAX_TOKENS_BY_STAGE, LLM_SAMPLING_BY_STAGE,
                CAPACITY_BY_STAGE, TIMEOUT_BY_STAGE,
                KAFKA_CLIENT, DATABASES, TENANTS);
    }

    /** Every option, in declaration order (the order of the generated table): each public ConfigOption field of this class. */
    public static List<ConfigOption<?>> all() {
        return ALL;
    }

    private static final List<ConfigOption<?>> ALL = Arrays.stream(JobOptions.class.getDeclaredFields())
            .filter(f -> Modifier.isPublic(f.getModifiers()) && Modifier.isStatic(f.getModifiers())
                    && f.getType() == ConfigOption.class)
            .<ConfigOption<?>>map(JobOptions::option)
            .toList();

    private static ConfigOption<?> option(Field field) {
        try {
            return (ConfigOption<?>) field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}

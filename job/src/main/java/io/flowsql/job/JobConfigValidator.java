package io.flowsql.job;

import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.config.OptionFamily;

import io.flowsql.agents.opensearch.OpenSearchAlignStage;
import io.flowsql.agents.opensearch.correct.OpenSearchCorrectStage;
import io.flowsql.engine.StageRegistry;
import io.flowsql.config.feedback.FeedbackOptions;
import io.flowsql.config.journal.JournalOptions;
import io.flowsql.config.llm.LlmOptions;
import io.flowsql.config.pacing.PacingOptions;
import io.flowsql.rooms.SqlRooms;
import org.apache.flink.configuration.ConfigOption;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Every start-up check of the job's options, in one place: each key is known, each value parses, and values that
 * contradict each other fail before the job runs, with a message that names the key.
 */
final class JobConfigValidator {
    private final JobConfig config;

    private JobConfigValidator(JobConfig config) {
        this.config = config;
    }

    static void validate(JobConfig config) {
        JobConfigValidator v = new JobConfigValidator(config);
        v.everyKeyIsKnownAndParses();
        MINIMUMS.forEach(v::atLeast);
        v.checkpoints();
        v.kafkaClient();
        v.llm();
        v.budgets();
        v.agents();
        // each room's own checks: sql.*, tenants.* (malformed keys, roles), llm.*, journal.*, feedback.*, pacing
        SqlRooms.validate(config.settings());
        LlmOptions.validate(config.settings());
        JournalOptions.validate(config.settings());
        FeedbackOptions.validate(config.settings());
        PacingOptions.validate(config.settings());
    }

    /** The least value of each int option that has one; "0 = none / derived / default" options start at 0. */
    private static final Map<ConfigOption<Integer>, Integer> MINIMUMS = Map.ofEntries(
            Map.entry(JobOptions.PARALLELISM, 0), Map.entry(JobOptions.SOURCE_PARALLELISM, 0),
            Map.entry(JobOptions.MAX_RECORD_BYTES, 1), Map.entry(JobOptions.DEAD_LETTER_EXCERPT_BYTES, 0),
            Map.entry(JobOptions.STAGE_CAPACITY, 1),
            Map.entry(JobOptions.EXECUTION_POOL_SIZE, 1), Map.entry(JobOptions.EXECUTION_CAPACITY, 1),
            Map.entry(JobOptions.HISTORY_MAX_TURNS, 0),
            Map.entry(JobOptions.HISTORY_MAX_BYTES, 0), Map.entry(JobOptions.AGENT_CANDIDATES, 1),
            Map.entry(JobOptions.AGENT_LINK_SKIP_COLUMNS, 0), Map.entry(JobOptions.AGENT_MAG_REFINE_ROUNDS, 0),
            Map.entry(JobOptions.AGENT_OPENSEARCH_CORRECT_ROUNDS, 0), Map.entry(JobOptions.AGENT_FEWSHOT_EXAMPLES, 0),
            Map.entry(JobOptions.AGENT_SQLFIX_CRAFTER_K, 1), Map.entry(JobOptions.AGENT_SQLFIX_REFINE_ATTEMPTS, 1),
            Map.entry(JobOptions.SCHEMA_TOKEN_BUDGET, 1), Map.entry(JobOptions.AGENT_MMSQL_SELECT_ABOVE_COLUMNS, 0));

    private void everyKeyIsKnownAndParses() {
        Set<String> known = JobOptions.all().stream().map(ConfigOption::key).collect(Collectors.toSet());
        for (String key : config.keys()) {
            boolean inFamily = JobOptions.families().stream().anyMatch(f -> f.contains(key));
            if (!known.contains(key) && !inFamily) {
                throw new IllegalArgumentException("unknown option '" + key + "' (see docs/OPERATIONS.md or --print-options)");
            }
        }
        JobOptions.all().forEach(config::read);
        for (OptionFamily<?> family : JobOptions.families()) {
            for (String key : config.keys()) {
                if (family.contains(key)) {
                    config.read(family.option(key.substring(family.prefix().length())));
                }
            }
        }
    }

    private void checkpoints() {
        Duration checkpoint = get(JobOptions.CHECKPOINT_INTERVAL);
        Duration txTimeout = get(JobOptions.TRANSACTION_TIMEOUT);
        if (checkpoint.isZero() || checkpoint.isNegative()) {
            throw new IllegalArgumentException(JobOptions.CHECKPOINT_INTERVAL.key()
                    + " must be positive: exactly-once answers are committed at checkpoints");
        }
        if (txTimeout.compareTo(checkpoint) <= 0) {
            throw new IllegalArgumentException(JobOptions.TRANSACTION_TIMEOUT.key() + " (" + txTimeout + ") must exceed "
                    + JobOptions.CHECKPOINT_INTERVAL.key() + " (" + checkpoint + "), or open transactions expire before they are committed");
        }
        Duration minPause = get(JobOptions.CHECKPOINT_MIN_PAUSE);
        if (minPause.isNegative() || minPause.compareTo(checkpoint) > 0) {
            throw new IllegalArgumentException(JobOptions.CHECKPOINT_MIN_PAUSE.key() + " (" + minPause + ") must be "
                    + "between 0 and " + JobOptions.CHECKPOINT_INTERVAL.key() + " (" + checkpoint + ")");
        }
        Duration idle = get(JobOptions.CHECKPOINT_INTERVAL_IDLE);
        if (txTimeout.compareTo(idle) <= 0) {
            throw new IllegalArgumentException(JobOptions.CHECKPOINT_INTERVAL_IDLE.key() + " (" + idle + ") must be "
                    + "below " + JobOptions.TRANSACTION_TIMEOUT.key() + " (" + txTimeout + ")");
        }
    }

    /** Client properties the job sets itself: passing them through would break exactly-once or the job's wiring. */
    private static final Map<String, String> KAFKA_OWN_PROPERTIES = Map.of(
            "bootstrap.servers", JobOptions.BOOTSTRAP_SERVERS.key(),
            "group.id", JobOptions.GROUP_ID.key(),
            "transactional.id", JobOptions.TRANSACTIONAL_ID_PREFIX.key(),
            "transaction.timeout.ms", JobOptions.TRANSACTION_TIMEOUT.key(),
            "isolation.level", "(read_committed for the questions, dialogue.feedback-isolation for the answers read back)",
            "enable.idempotence", "(always on: exactly-once sinks)",
            "key.deserializer", "(the job's own)", "value.deserializer", "(the job's own)",
            "key.serializer", "(the job's own)", "value.serializer", "(the job's own)");

    private void kafkaClient() {
        for (String key : config.get(JobOptions.KAFKA_CLIENT).keySet()) {
            String own = KAFKA_OWN_PROPERTIES.get(key);
            if (own != null) {
                throw new IllegalArgumentException(JobOptions.KAFKA_CLIENT_PREFIX + key + " cannot be passed through: the job sets "
                        + key + " itself" + (own.startsWith("(") ? " " + own : "; use " + own));
            }
        }
    }

    private void llm() {
        String strategy = get(JobOptions.STRATEGY);
        if (!StageRegistry.presetNames().contains(strategy)) {
            throw new IllegalArgumentException(JobOptions.STRATEGY.key() + " must be one of "
                    + String.join(", ", StageRegistry.presetNames()) + ", not '" + strategy + "'");
        }
        List<String> presets = get(JobOptions.PRESETS);
        for (String preset : presets) {
            if (!StageRegistry.isPreset(preset)) {
                throw new IllegalArgumentException(JobOptions.PRESETS.key() + " names an unknown preset '" + preset
                        + "'; presets: " + String.join(", ", StageRegistry.presetNames()));
            }
        }
        if (!presets.contains(strategy)) {
            throw new IllegalArgumentException(JobOptions.STRATEGY.key() + " (" + strategy + ") must be one of "
                    + JobOptions.PRESETS.key() + " (" + String.join(", ", presets) + ")");
        }
        queueBudget();
    }

    /**
     * With no queue for a connection permit (0; its bounds are the LLM room's), a stage that holds more requests than
     * there are permits would fail the surplus at once.
     */
    private void queueBudget() {
        if (!get(JobOptions.LLM_QUEUE_BUDGET).isZero()) {
            return;
        }
        int permits = EngineWiring.maxConcurrency(config);
        Map<String, Integer> capacities = new TreeMap<>();
        capacities.put(JobOptions.STAGE_CAPACITY.key(), get(JobOptions.STAGE_CAPACITY));
        config.get(JobOptions.CAPACITY_BY_STAGE).forEach((stage, capacity) ->
                capacities.put(JobOptions.CAPACITY_BY_STAGE.prefix() + stage, capacity));
        capacities.forEach((key, capacity) -> {
            if (capacity > permits) {
                throw new IllegalArgumentException(key + " (" + capacity + ") is above the " + permits + " connection permits ("
                        + JobOptions.LLM_MAX_CONCURRENCY.key() + " / " + JobOptions.LLM_SERVER_SLOTS.key() + ") while "
                        + JobOptions.LLM_QUEUE_BUDGET.key() + " is 0: the requests beyond the permits would fail at once; "
                        + "give " + JobOptions.LLM_QUEUE_BUDGET.key() + " a budget or lower " + key);
            }
        });
    }

    /**
     * One budget rules each step, and the inner budget ends first so that what times out is cancelled by its own
     * limit, not abandoned by an outer one: an LLM call's whole budget (its wait for a connection slot, its attempts
     * and backoff) fits in its stage's timeout, so a stage that holds more requests than there are connection slots
     * queues inside the calls' budget; a candidate's query ends by the executor's limit before the operator's; the
     * gather waits at least that long; a follow-up waits for an answer longer than a checkpoint takes to commit it.
     */
    private void budgets() {
        Duration llmBudget = get(JobOptions.LLM_TOTAL_BUDGET);
        Map<String, Duration> stageTimeouts = new TreeMap<>();
        stageTimeouts.put(JobOptions.STAGE_TIMEOUT.key(), get(JobOptions.STAGE_TIMEOUT));
        config.get(JobOptions.TIMEOUT_BY_STAGE).forEach((stage, timeout) ->
                stageTimeouts.put(JobOptions.TIMEOUT_BY_STAGE.prefix() + stage, timeout));
        stageTimeouts.forEach((key, timeout) -> {
            if (timeout.compareTo(llmBudget) < 0) {
                throw new IllegalArgumentException(key + " (" + timeout + ") is shorter than "
                        + JobOptions.LLM_TOTAL_BUDGET.key() + " (" + llmBudget + "): an LLM call (with its wait for one of "
                        + JobOptions.LLM_MAX_CONCURRENCY.key() + " connection slots, retries and backoff) could outlive its "
                        + "stage; raise " + key + " or lower " + JobOptions.LLM_TOTAL_BUDGET.key());
            }
        });
        config.get(JobOptions.CAPACITY_BY_STAGE).forEach((stage, capacity) -> {
            if (capacity < 1) {
                throw new IllegalArgumentException(JobOptions.CAPACITY_BY_STAGE.prefix() + stage + " must be at least 1, not " + capacity);
            }
        });
        notBelow(JobOptions.EXECUTION_TIMEOUT, JobOptions.QUERY_TIMEOUT, "a candidate's query must end by the executor's limit first");
        notBelow(JobOptions.GATHER_TIMEOUT, JobOptions.EXECUTION_TIMEOUT, "candidates would be counted as timed out before their own limit");
        if (get(JobOptions.FEEDBACK_WAIT).compareTo(get(JobOptions.CHECKPOINT_INTERVAL)) <= 0) {
            throw new IllegalArgumentException(JobOptions.FEEDBACK_WAIT.key() + " (" + get(JobOptions.FEEDBACK_WAIT)
                    + ") must exceed " + JobOptions.CHECKPOINT_INTERVAL.key() + " (" + get(JobOptions.CHECKPOINT_INTERVAL)
                    + "): an answer is read back only once its checkpoint commits");
        }
        atLeast(JobOptions.MAX_PARALLELISM, Math.max(1, get(JobOptions.PARALLELISM)));
    }

    private void agents() {
        double temperature = get(JobOptions.AGENT_TEMPERATURE);
        if (!(temperature >= 0 && temperature <= 2)) {
            throw new IllegalArgumentException(JobOptions.AGENT_TEMPERATURE.key() + " must be between 0 and 2, not " + temperature);
        }
        oneOf(JobOptions.AGENT_OPENSEARCH_ALIGN_MODE, List.of(OpenSearchAlignStage.MODEL, OpenSearchAlignStage.RULES));
        oneOf(JobOptions.AGENT_OPENSEARCH_CORRECT_MODE, List.of(OpenSearchCorrectStage.REGENERATE, OpenSearchCorrectStage.ROUNDS));
    }

    private void oneOf(ConfigOption<String> option, List<String> allowed) {
        if (!allowed.contains(get(option))) {
            throw new IllegalArgumentException(option.key() + " must be one of " + String.join(", ", allowed) + ", not '"
                    + get(option) + "'");
        }
    }

    private <T> T get(ConfigOption<T> option) {
        return config.get(option);
    }

    private void notBelow(ConfigOption<Duration> outer, ConfigOption<Duration> inner, String why) {
        if (get(outer).compareTo(get(inner)) < 0) {
            throw new IllegalArgumentException(outer.key() + " (" + get(outer) + ") is shorter than " + inner.key() + " ("
                    + get(inner) + "): " + why);
        }
    }

    private void atLeast(ConfigOption<Integer> option, int min) {
        config.settings().requireAtLeast(option, min);
    }
}

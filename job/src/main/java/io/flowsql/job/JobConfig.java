package io.flowsql.job;

import io.flowsql.engine.LlmCacheSettings;

import java.io.IOException;
import java.io.Reader;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The job's configuration: defaults from {@link JobOptions}, then a properties file, then command-line
 * overrides; unknown keys and contradictory values fail at start, not in the middle of a run.
 */
public final class JobConfig implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Map<String, String> values;

    private JobConfig(Map<String, String> values) {
        this.values = new TreeMap<>(values);
        validate();
    }

    public static JobConfig defaults() {
        return of(Map.of());
    }

    public static JobConfig of(Map<String, String> overrides) {
        return new JobConfig(overrides);
    }

    /** Reads {@code file} (properties format; null for none) and applies {@code overrides} on top. */
    public static JobConfig load(Path file, Map<String, String> overrides) {
        Map<String, String> merged = new TreeMap<>();
        if (file != null) {
            Properties props = new Properties();
            try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                props.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read config file " + file, e);
            }
            props.stringPropertyNames().forEach(k -> merged.put(k, props.getProperty(k).trim()));
        }
        merged.putAll(overrides);
        return new JobConfig(merged);
    }

    /** A copy with more overrides. */
    public JobConfig with(Map<String, String> overrides) {
        Map<String, String> merged = new TreeMap<>(values);
        merged.putAll(overrides);
        return new JobConfig(merged);
    }

    public <T> T get(JobOption<T> option) {
        return option.parse(values.getOrDefault(option.key(), option.defaultValue()));
    }

    /** Per-stage values of a family such as "stage.timeout.": stage name → raw value. */
    public Map<String, String> family(String prefix) {
        return values.entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
                .collect(Collectors.toMap(e -> e.getKey().substring(prefix.length()), Map.Entry::getValue, (a, b) -> b, TreeMap::new));
    }

    public Map<String, Duration> durationFamily(String prefix) {
        Map<String, Duration> out = new TreeMap<>();
        family(prefix).forEach((stage, v) -> out.put(stage, JobOption.parseDuration(v)));
        return out;
    }

    public Map<String, Integer> intFamily(String prefix) {
        Map<String, Integer> out = new TreeMap<>();
        family(prefix).forEach((stage, v) -> out.put(stage, Integer.parseInt(v.trim())));
        return out;
    }

    /** Explicitly set values (file and overrides), for logging. The API key and Kafka credentials are masked. */
    public Map<String, String> explicitValues() {
        Map<String, String> shown = new TreeMap<>(values);
        shown.replaceAll((k, v) -> v.isEmpty() || !isSecret(k) ? v : "***");
        return shown;
    }

    /** The values as the job's command-line arguments ({@code -D key=value} each), e.g. to submit it to a cluster. */
    public List<String> asArguments() {
        List<String> args = new ArrayList<>();
        values.forEach((k, v) -> args.addAll(List.of("-D", k + "=" + v)));
        return args;
    }

    /**
     * The Kafka client properties passed through to every source and sink ({@code kafka.client.*} without the prefix:
     * SASL, TLS, client tuning). The job's own settings (bootstrap servers, isolation level, transactions, group,
     * serializers) are options of their own and cannot be overridden here.
     */
    public Properties kafkaClientProperties() {
        Properties props = new Properties();
        family(JobOptions.KAFKA_CLIENT_PREFIX).forEach(props::setProperty);
        return props;
    }

    private static boolean isSecret(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.equals(JobOptions.LLM_API_KEY.key()) || k.contains("password") || k.contains("jaas") || k.contains("secret");
    }

    private void validate() {
        Set<String> known = JobOptions.all().stream().map(JobOption::key).collect(Collectors.toSet());
        for (String key : values.keySet()) {
            boolean inFamily = JobOptions.FAMILIES.stream().anyMatch(p -> key.startsWith(p) && key.length() > p.length());
            if (!known.contains(key) && !inFamily) {
                throw new IllegalArgumentException("unknown option '" + key + "' (see docs/OPERATIONS.md or --print-options)");
            }
        }
        JobOptions.all().forEach(this::get);
        durationFamily("stage.timeout.");
        intFamily("stage.capacity.");
        Duration checkpoint = get(JobOptions.CHECKPOINT_INTERVAL);
        Duration txTimeout = get(JobOptions.TRANSACTION_TIMEOUT);
        if (checkpoint.isZero() || checkpoint.isNegative()) {
            throw new IllegalArgumentException("job.checkpoint-interval must be positive: exactly-once answers are committed at checkpoints");
        }
        if (txTimeout.compareTo(checkpoint) <= 0) {
            throw new IllegalArgumentException("kafka.transaction-timeout (" + txTimeout + ") must exceed job.checkpoint-interval ("
                    + checkpoint + "), or open transactions expire before they are committed");
        }
        validateKafkaClient();
        validateLlm();
        validateBudgets();
        validateAgents();
        validateJournal();
        String offsets = get(JobOptions.STARTING_OFFSETS);
        if (!Set.of("committed-or-earliest", "earliest", "latest").contains(offsets)) {
            throw new IllegalArgumentException("kafka.starting-offsets must be committed-or-earliest, earliest or latest, not " + offsets);
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

    private void validateKafkaClient() {
        for (String key : family(JobOptions.KAFKA_CLIENT_PREFIX).keySet()) {
            String own = KAFKA_OWN_PROPERTIES.get(key);
            if (own != null) {
                throw new IllegalArgumentException(JobOptions.KAFKA_CLIENT_PREFIX + key + " cannot be passed through: the job sets "
                        + key + " itself" + (own.startsWith("(") ? " " + own : "; use " + own));
            }
        }
    }

    private void validateLlm() {
        atLeast(JobOptions.LLM_REQUESTS_PER_MINUTE, 0);
        atLeast(JobOptions.LLM_TOKENS_PER_MINUTE, 0);
        Duration budget = get(JobOptions.LLM_TOTAL_BUDGET);
        Duration call = get(JobOptions.LLM_TIMEOUT);
        if (budget.compareTo(call) < 0) {
            throw new IllegalArgumentException(JobOptions.LLM_TOTAL_BUDGET.key() + " (" + budget + ") must be at least "
                    + JobOptions.LLM_TIMEOUT.key() + " (" + call + ")");
        }
        try {
            LlmCacheSettings.modeOf(get(JobOptions.LLM_CACHE_MODE));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(JobOptions.LLM_CACHE_MODE.key() + ": " + e.getMessage(), e);
        }
    }

    private void validateJournal() {
        String release = get(JobOptions.JOURNAL_RELEASE);
        if (!Set.of("on-commit", "retain").contains(release)) {
            throw new IllegalArgumentException(JobOptions.JOURNAL_RELEASE.key() + " must be on-commit or retain, not " + release);
        }
        Duration retention = get(JobOptions.JOURNAL_RETENTION);
        if (retention.isZero() || retention.isNegative()) {
            throw new IllegalArgumentException(JobOptions.JOURNAL_RETENTION.key() + " must be positive: " + retention);
        }
    }

    /**
     * One budget rules each step, and the inner budget ends first so that what times out is cancelled by its own
     * limit, not abandoned by an outer one: an LLM call's whole budget (its wait for a connection slot, its attempts
     * and backoff) fits in its stage's timeout, so a stage that holds more requests than there are connection slots
     * queues inside the calls' budget; a candidate's query ends by the executor's limit before the operator's; the
     * gather waits at least that long; a follow-up waits for an answer longer than a checkpoint takes to commit it.
     * Settings that cannot be met fail at start, naming the key.
     */
    private void validateBudgets() {
        Duration llmBudget = get(JobOptions.LLM_TOTAL_BUDGET);
        Map<String, Duration> stageTimeouts = new TreeMap<>();
        stageTimeouts.put(JobOptions.STAGE_TIMEOUT.key(), get(JobOptions.STAGE_TIMEOUT));
        durationFamily("stage.timeout.").forEach((stage, timeout) -> stageTimeouts.put("stage.timeout." + stage, timeout));
        stageTimeouts.forEach((key, timeout) -> {
            if (timeout.compareTo(llmBudget) < 0) {
                throw new IllegalArgumentException(key + " (" + timeout + ") is shorter than "
                        + JobOptions.LLM_TOTAL_BUDGET.key() + " (" + llmBudget + "): an LLM call (with its wait for one of "
                        + JobOptions.LLM_MAX_CONCURRENCY.key() + " connection slots, retries and backoff) could outlive its "
                        + "stage; raise " + key + " or lower " + JobOptions.LLM_TOTAL_BUDGET.key());
            }
        });
        notBelow(JobOptions.EXECUTION_TIMEOUT, JobOptions.QUERY_TIMEOUT, "a candidate's query must end by the executor's limit first");
        notBelow(JobOptions.GATHER_TIMEOUT, JobOptions.EXECUTION_TIMEOUT, "candidates would be counted as timed out before their own limit");
        if (get(JobOptions.FEEDBACK_WAIT).compareTo(get(JobOptions.CHECKPOINT_INTERVAL)) <= 0) {
            throw new IllegalArgumentException(JobOptions.FEEDBACK_WAIT.key() + " (" + get(JobOptions.FEEDBACK_WAIT)
                    + ") must exceed " + JobOptions.CHECKPOINT_INTERVAL.key() + " (" + get(JobOptions.CHECKPOINT_INTERVAL)
                    + "): an answer is read back only once its checkpoint commits");
        }
        atLeast(JobOptions.HISTORY_MAX_TURNS, 0);
        atLeast(JobOptions.HISTORY_MAX_BYTES, 0);
        atLeast(JobOptions.MAX_PARALLELISM, Math.max(1, get(JobOptions.PARALLELISM)));
    }

    private void notBelow(JobOption<Duration> outer, JobOption<Duration> inner, String why) {
        if (get(outer).compareTo(get(inner)) < 0) {
            throw new IllegalArgumentException(outer.key() + " (" + get(outer) + ") is shorter than " + inner.key() + " ("
                    + get(inner) + "): " + why);
        }
    }

    private void validateAgents() {
        atLeast(JobOptions.AGENT_CANDIDATES, 1);
        atLeast(JobOptions.AGENT_LINK_SKIP_COLUMNS, 0);
        atLeast(JobOptions.AGENT_MAG_REFINE_ROUNDS, 0);
        atLeast(JobOptions.AGENT_OPENSEARCH_CORRECT_ROUNDS, 0);
        atLeast(JobOptions.AGENT_FEWSHOT_EXAMPLES, 0);
        atLeast(JobOptions.AGENT_SQLFIX_CRAFTER_K, 1);
        atLeast(JobOptions.AGENT_SQLFIX_REFINE_ATTEMPTS, 1);
        double temperature = get(JobOptions.AGENT_TEMPERATURE);
        if (!(temperature >= 0 && temperature <= 2)) {
            throw new IllegalArgumentException(JobOptions.AGENT_TEMPERATURE.key() + " must be between 0 and 2, not " + temperature);
        }
    }

    private void atLeast(JobOption<Integer> option, int min) {
        int value = get(option);
        if (value < min) {
            throw new IllegalArgumentException(option.key() + " must be at least " + min + ", not " + value);
        }
    }
}

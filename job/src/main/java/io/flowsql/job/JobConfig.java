package io.flowsql.job;

import io.flowsql.config.OptionFamily;
import io.flowsql.config.Settings;
import io.flowsql.config.kafka.KafkaClientFactory;
import io.flowsql.config.kafka.KafkaOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The job's configuration: a Flink {@link Configuration} filled from the {@link JobOptions}' defaults, then a properties
 * file, then command-line overrides, and read with {@code get(JobOptions.X)}. Values are parsed by Flink (durations such
 * as {@code 500ms}, {@code 6 min} or {@code PT10S}); an unknown key, a value that does not parse or contradictory values
 * fail at start naming the key ({@link JobConfigValidator}).
 */
public final class JobConfig implements Serializable {
    private static final long serialVersionUID = 3L;

    /** The values as given, read through the job's options (each room's, and the job's own). */
    private final Settings settings;

    private JobConfig(Map<String, String> given) {
        this.settings = Settings.of(given, JobOptions.all());
        JobConfigValidator.validate(this);
    }

    public static JobConfig defaults() {
        return of(Map.of());
    }

    public static JobConfig of(Map<String, String> overrides) {
        return new JobConfig(overrides);
    }

    /** Reads {@code file} (properties format; null for none) and applies {@code overrides} on top. */
    public static JobConfig load(Path file, Map<String, String> overrides) {
        return new JobConfig(Settings.merge(file, overrides));
    }

    /** A copy with more overrides. */
    public JobConfig with(Map<String, String> overrides) {
        Map<String, String> merged = new TreeMap<>(settings.values());
        merged.putAll(overrides);
        return new JobConfig(merged);
    }

    /** The values as the rooms read them (the console and the SQL functions read the same rooms from these). */
    public Settings settings() {
        return settings;
    }

    public <T> T get(ConfigOption<T> option) {
        return settings.get(option);
    }

    /** A copy of the Flink configuration (every key as given, enum values in their canonical spelling). */
    public Configuration configuration() {
        return settings.configuration();
    }

    /** The members of a family that are set: name after the prefix → value. */
    public <T> Map<String, T> get(OptionFamily<T> family) {
        return settings.get(family);
    }

    /** Per-stage values of a family such as "llm.model.": stage name → value as given. */
    public Map<String, String> family(String prefix) {
        return settings.family(prefix);
    }

    /** Per-stage durations of a family such as "stage.timeout.", parsed as Flink durations. */
    public Map<String, Duration> durationFamily(String prefix) {
        return get(OptionFamily.of(prefix, "<stage>", Duration.class, ""));
    }

    /** Per-stage ints of a family such as "stage.capacity.". */
    public Map<String, Integer> intFamily(String prefix) {
        return get(OptionFamily.of(prefix, "<stage>", Integer.class, ""));
    }

    /** What a masked value is shown as. */
    public static final String MASK = "***";

    /**
     * Explicitly set values (file and overrides), for logging and showing: a value is shown only when its key is known
     * to hold no secret ({@link ShownOptions}); every other one is {@link #MASK}.
     */
    public Map<String, String> explicitValues() {
        Map<String, String> shown = new TreeMap<>(settings.values());
        shown.replaceAll((k, v) -> v.isEmpty() || ShownOptions.shown(k, v) ? v : MASK);
        return shown;
    }

    /** The explicitly set keys whose values {@link #explicitValues} masks. */
    public List<String> maskedKeys() {
        return settings.values().entrySet().stream().filter(e -> !e.getValue().isEmpty() && !ShownOptions.shown(e.getKey(), e.getValue()))
                .map(Map.Entry::getKey).toList();
    }

    /** The values as the job's command-line arguments ({@code -D key=value} each), e.g. to submit it to a cluster. */
    public List<String> asArguments() {
        List<String> args = new ArrayList<>();
        settings.values().forEach((k, v) -> args.addAll(List.of("-D", k + "=" + v)));
        return args;
    }

    /**
     * The Kafka client properties passed through to every source and sink ({@code kafka.client.*} without the prefix:
     * SASL, TLS, client tuning). The job's own settings (bootstrap servers, isolation level, transactions, group,
     * serializers) are options of their own and cannot be overridden here.
     */
    public Properties kafkaClientProperties() {
        Properties props = new Properties();
        get(JobOptions.KAFKA_CLIENT).forEach(props::setProperty);
        return props;
    }

    /** The one way every Kafka client of the job is made: the brokers, kafka.client.* and kafka.client-file. */
    public KafkaClientFactory kafkaClients() {
        return KafkaOptions.clients(settings);
    }

    /** The keys given explicitly (file and overrides). */
    Iterable<String> keys() {
        return settings.values().keySet();
    }

    /**
     * Whether the option's value is masked wherever it could be shown: every key not known to be safe (the endpoint's
     * key, passwords, JAAS configurations, private keys); an option naming where a secret lives
     * ({@code llm.api-key-env}, {@code databases.<id>.password-file}) is not.
     */
    public static boolean isSecret(String key) {
        return !ShownOptions.shown(key, "");
    }

    /** Reads {@code option}, naming the key and the value when it does not parse. */
    <T> T read(ConfigOption<T> option) {
        return settings.read(option);
    }
}

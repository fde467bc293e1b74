package io.flowsql.job;

import io.flowsql.config.OptionFamily;

import io.flowsql.config.kafka.KafkaClientFactory;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

import java.io.IOException;
import java.io.Reader;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The job's configuration: a Flink {@link Configuration} filled from the {@link JobOptions}' defaults, then a properties
 * file, then command-line overrides, and read with {@code get(JobOptions.X)}. Values are parsed by Flink (durations such
 * as {@code 500ms}, {@code 6 min} or {@code PT10S}); an unknown key, a value that does not parse or contradictory values
 * fail at start naming the key ({@link JobConfigValidator}).
 */
public final class JobConfig implements Serializable {
    private static final long serialVersionUID = 2L;

    /** The values as given (trimmed), for logging and for passing them on as arguments. */
    private final Map<String, String> values;
    private final Configuration configuration;

    private JobConfig(Map<String, String> given) {
        this.values = new TreeMap<>();
        given.forEach((k, v) -> values.put(k.trim(), v == null ? "" : v.trim()));
        this.configuration = toConfiguration(values);
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
        Map<String, String> merged = new TreeMap<>();
        if (file != null) {
            Properties props = new Properties();
            try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                props.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read config file " + file, e);
            }
            props.stringPropertyNames().forEach(k -> merged.put(k, props.getProperty(k)));
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

    public <T> T get(ConfigOption<T> option) {
        return configuration.get(option);
    }

    /** A copy of the Flink configuration (every key as given, enum values in their canonical spelling). */
    public Configuration configuration() {
        return configuration.clone();
    }

    /** The members of a family that are set: name after the prefix → value. */
    public <T> Map<String, T> get(OptionFamily<T> family) {
        Map<String, T> out = new TreeMap<>();
        values.keySet().stream().filter(family::contains).forEach(key -> {
            String name = key.substring(family.prefix().length());
            out.put(name, configuration.get(family.option(name)));
        });
        return out;
    }

    /** Per-stage values of a family such as "llm.model.": stage name → value as given. */
    public Map<String, String> family(String prefix) {
        return values.entrySet().stream().filter(e -> e.getKey().startsWith(prefix) && e.getKey().length() > prefix.length())
                .collect(Collectors.toMap(e -> e.getKey().substring(prefix.length()), Map.Entry::getValue, (a, b) -> b, TreeMap::new));
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
        Map<String, String> shown = new TreeMap<>(values);
        shown.replaceAll((k, v) -> v.isEmpty() || ShownOptions.shown(k, v) ? v : MASK);
        return shown;
    }

    /** The explicitly set keys whose values {@link #explicitValues} masks. */
    public List<String> maskedKeys() {
        return values.entrySet().stream().filter(e -> !e.getValue().isEmpty() && !ShownOptions.shown(e.getKey(), e.getValue()))
                .map(Map.Entry::getKey).toList();
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
        get(JobOptions.KAFKA_CLIENT).forEach(props::setProperty);
        return props;
    }

    /** The one way every Kafka client of the job is made: the brokers, kafka.client.* and kafka.client-file. */
    public KafkaClientFactory kafkaClients() {
        return new KafkaClientFactory(get(JobOptions.BOOTSTRAP_SERVERS), get(JobOptions.KAFKA_CLIENT),
                get(JobOptions.KAFKA_CLIENT_FILE));
    }

    /** The keys given explicitly (file and overrides). */
    Iterable<String> keys() {
        return values.keySet();
    }

    /**
     * Whether the option's value is masked wherever it could be shown: every key not known to be safe (the endpoint's
     * key, passwords, JAAS configurations, private keys); an option naming where a secret lives
     * ({@code llm.api-key-env}, {@code databases.<id>.password-file}) is not.
     */
    public static boolean isSecret(String key) {
        return !ShownOptions.shown(key, "");
    }

    /**
     * The Flink configuration of these values. Flink matches an enum value by its exact name (case aside), the options
     * have always accepted dashes for underscores ({@code read-only}, {@code json-schema}): enum values are spelled as
     * Flink expects here, and one that names no constant fails naming the key and the choices.
     */
    private static Configuration toConfiguration(Map<String, String> values) {
        Map<String, String> flink = new TreeMap<>(values);
        for (ConfigOption<?> option : JobOptions.all()) {
            String raw = values.get(option.key());
            if (raw != null && option.defaultValue() instanceof Enum<?> e) {
                Class<?> type = e.getDeclaringClass();
                Enum<?> value = EnumValues.find(type, raw).orElseThrow(() -> new IllegalArgumentException(option.key()
                        + " must be one of " + EnumValues.choices(type) + ", not '" + raw + "'"));
                flink.put(option.key(), value.toString());
            }
        }
        Configuration configuration = Configuration.fromMap(flink);
        for (ConfigOption<?> option : JobOptions.all()) {
            if (values.containsKey(option.key()) && option.defaultValue() instanceof List<?>) {
                setItems(configuration, option, values.get(option.key()));
            }
        }
        return configuration;
    }

    /** A list's items are separated by commas (as the options always were) or semicolons (Flink's separator). */
    @SuppressWarnings("unchecked")
    private static void setItems(Configuration configuration, ConfigOption<?> option, String raw) {
        List<String> items = Arrays.stream(raw.split("[,;]")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        configuration.set((ConfigOption<List<String>>) option, items);
    }

    /** Reads {@code option}, naming the key and the value when it does not parse. */
    <T> T read(ConfigOption<T> option) {
        try {
            return configuration.get(option);
        } catch (IllegalArgumentException e) {
            String why = e.getCause() == null ? e.getMessage() : e.getCause().getMessage();
            throw new IllegalArgumentException(option.key() + ": cannot read '" + configuration.toMap().get(option.key())
                    + "': " + why, e);
        }
    }
}

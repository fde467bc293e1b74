package io.flowsql.config;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

import java.io.IOException;
import java.io.Reader;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Option values as given (a properties file, then {@code -D} overrides), read through the rooms' own
 * {@link ConfigOption}s and {@link OptionFamily}s: the one way the job, the SQL functions and the console read their
 * options. Values are parsed by Flink (durations such as {@code 500ms} or {@code PT10S}); enum values are matched
 * ignoring case and dash versus underscore ({@link EnumValues}); a list's items are separated by commas or semicolons;
 * a value of a known option that does not parse fails at once, naming the key.
 */
public final class Settings implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The values as given (trimmed). */
    private final Map<String, String> values;
    private final Configuration configuration;

    private Settings(Map<String, String> given, Collection<? extends ConfigOption<?>> options) {
        this.values = new TreeMap<>();
        given.forEach((k, v) -> values.put(k.trim(), v == null ? "" : v.trim()));
        this.configuration = toConfiguration(values, options);
        options.forEach(this::read);
    }

    /** @param options the options read from these values (the rooms' options): their enum and list values are normalised and parsed */
    public static Settings of(Map<String, String> given, Collection<? extends ConfigOption<?>> options) {
        return new Settings(given, options);
    }

    /** Reads {@code file} (properties format; null for none), applies {@code overrides} on top and reads {@code options} from them. */
    public static Settings load(Path file, Map<String, String> overrides, Collection<? extends ConfigOption<?>> options) {
        return of(merge(file, overrides), options);
    }

    /** The values of {@code file} (properties format; null for none) with {@code overrides} on top. */
    public static Map<String, String> merge(Path file, Map<String, String> overrides) {
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
        return merged;
    }

    public <T> T get(ConfigOption<T> option) {
        return configuration.get(option);
    }

    /** Reads {@code option}, naming the key and the value when it does not parse. */
    public <T> T read(ConfigOption<T> option) {
        try {
            return configuration.get(option);
        } catch (IllegalArgumentException e) {
            String why = e.getCause() == null ? e.getMessage() : e.getCause().getMessage();
            throw new IllegalArgumentException(option.key() + ": cannot read '" + configuration.toMap().get(option.key())
                    + "': " + why, e);
        }
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

    /** The values under {@code prefix} as given: name after the prefix → value. */
    public Map<String, String> family(String prefix) {
        return values.entrySet().stream().filter(e -> e.getKey().startsWith(prefix) && e.getKey().length() > prefix.length())
                .collect(Collectors.toMap(e -> e.getKey().substring(prefix.length()), Map.Entry::getValue, (a, b) -> b, TreeMap::new));
    }

    /** Whether {@code option} is given explicitly (not left at its default). */
    public boolean isSet(ConfigOption<?> option) {
        return values.containsKey(option.key());
    }

    /** Fails naming the key when the int {@code option} is below {@code min}. */
    public void requireAtLeast(ConfigOption<Integer> option, int min) {
        int value = get(option);
        if (value < min) {
            throw new IllegalArgumentException(option.key() + " must be at least " + min + ", not " + value);
        }
    }

    /** The values as given (trimmed), every key; secrets included: show them only through a mask. */
    public Map<String, String> values() {
        return java.util.Collections.unmodifiableMap(values);
    }

    /** A copy of the Flink configuration (every key as given, enum values in their canonical spelling). */
    public Configuration configuration() {
        return configuration.clone();
    }

    /**
     * Flink matches an enum value by its exact name (case aside), the options have always accepted dashes for
     * underscores ({@code read-only}, {@code json-schema}): enum values are spelled as Flink expects here, and one that
     * names no constant fails naming the key and the choices.
     */
    private static Configuration toConfiguration(Map<String, String> values, Collection<? extends ConfigOption<?>> options) {
        Map<String, String> flink = new TreeMap<>(values);
        for (ConfigOption<?> option : options) {
            String raw = values.get(option.key());
            if (raw != null && option.defaultValue() instanceof Enum<?> e) {
                Class<?> type = e.getDeclaringClass();
                Enum<?> value = EnumValues.find(type, raw).orElseThrow(() -> new IllegalArgumentException(option.key()
                        + " must be one of " + EnumValues.choices(type) + ", not '" + raw + "'"));
                flink.put(option.key(), value.toString());
            }
        }
        Configuration configuration = Configuration.fromMap(flink);
        for (ConfigOption<?> option : options) {
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
}

package io.flowsql.job;

import org.apache.flink.util.TimeUtils;

import java.io.Serializable;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * One typed, described configuration key with its default, so every option is parsed the same way and
 * the documentation table is generated from the options themselves.
 */
public final class JobOption<T> implements Serializable {
    private static final long serialVersionUID = 1L;

    /** A parser that travels with the option. */
    public interface Parser<T> extends Function<String, T>, Serializable {}

    private final String key;
    private final String defaultValue;
    private final String type;
    private final String description;
    private final Parser<T> parser;

    private JobOption(String key, String defaultValue, String type, String description, Parser<T> parser) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.type = type;
        this.description = description;
        this.parser = parser;
    }

    public static JobOption<String> text(String key, String defaultValue, String description) {
        return new JobOption<>(key, defaultValue, "string", description, s -> s);
    }

    public static JobOption<Integer> integer(String key, int defaultValue, String description) {
        return new JobOption<>(key, Integer.toString(defaultValue), "int", description, s -> Integer.parseInt(s.trim()));
    }

    public static JobOption<Double> decimal(String key, double defaultValue, String description) {
        return new JobOption<>(key, Double.toString(defaultValue), "double", description, s -> Double.parseDouble(s.trim()));
    }

    public static JobOption<Boolean> flag(String key, boolean defaultValue, String description) {
        return new JobOption<>(key, Boolean.toString(defaultValue), "boolean", description, JobOption::parseBoolean);
    }

    /** Durations as "500ms", "10s", "5min", "1h" or ISO-8601 ("PT10S"). */
    public static JobOption<Duration> duration(String key, String defaultValue, String description) {
        return new JobOption<>(key, defaultValue, "duration", description, JobOption::parseDuration);
    }

    /** Comma-separated list; blank means empty. */
    public static JobOption<List<String>> list(String key, String defaultValue, String description) {
        return new JobOption<>(key, defaultValue, "list", description,
                s -> s.isBlank() ? List.of() : Arrays.stream(s.split(",")).map(String::trim).filter(x -> !x.isEmpty()).toList());
    }

    public String key() {
        return key;
    }

    /** The default as written in a config file; null when the option has none. */
    public String defaultValue() {
        return defaultValue;
    }

    public String type() {
        return type;
    }

    public String description() {
        return description;
    }

    T parse(String text) {
        try {
            return parser.apply(text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("option " + key + " (" + type + "): cannot read '" + text + "': " + e.getMessage(), e);
        }
    }

    private static Boolean parseBoolean(String s) {
        String v = s.trim().toLowerCase(java.util.Locale.ROOT);
        if (!v.equals("true") && !v.equals("false")) {
            throw new IllegalArgumentException("expected true or false");
        }
        return Boolean.valueOf(v);
    }

    public static Duration parseDuration(String s) {
        String v = s.trim();
        return v.startsWith("P") || v.startsWith("p") ? Duration.parse(v) : TimeUtils.parseDuration(v);
    }
}

package io.flowsql.config;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import java.time.Duration;

/**
 * Keys made of a prefix and a name (a stage, a Kafka client property) whose values share one type: Flink has no
 * wildcard options, so each such key is read as its own {@link ConfigOption} of the family's type.
 *
 * @param prefix      e.g. {@code stage.timeout.}
 * @param placeholder what follows the prefix in the documentation, e.g. {@code <stage>}
 * @param valueClass  String, Integer or Duration
 * @param description one sentence for the options table
 */
public record OptionFamily<T>(String prefix, String placeholder, Class<T> valueClass, String description) {

    public OptionFamily {
        if (valueClass != String.class && valueClass != Integer.class && valueClass != Duration.class) {
            throw new IllegalArgumentException("option families hold strings, ints or durations, not " + valueClass);
        }
    }

    public static <T> OptionFamily<T> of(String prefix, String placeholder, Class<T> valueClass, String description) {
        return new OptionFamily<>(prefix, placeholder, valueClass, description);
    }

    /** The option of one member, e.g. {@code option("magsql.generate")} is {@code stage.timeout.magsql.generate}. */
    @SuppressWarnings("unchecked")
    public ConfigOption<T> option(String name) {
        ConfigOptions.OptionBuilder key = ConfigOptions.key(prefix + name);
        ConfigOptions.TypedConfigOptionBuilder<?> typed = valueClass == Integer.class ? key.intType()
                : valueClass == Duration.class ? key.durationType() : key.stringType();
        return (ConfigOption<T>) typed.noDefaultValue().withDescription(description);
    }

    /** Whether {@code key} is a member (the prefix followed by a non-empty name). */
    public boolean contains(String key) {
        return key.startsWith(prefix) && key.length() > prefix.length();
    }

    /** The key as documented, e.g. {@code stage.timeout.<stage>}. */
    public String documentedKey() {
        return prefix + placeholder;
    }
}

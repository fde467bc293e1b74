package io.flowsql.config;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How an enum option's values are written: lower case with dashes ({@code read-only}, {@code json-schema}), or the
 * enum's own text when it has one (Kafka's {@code read_committed}). Reading ignores case and dash versus underscore,
 * as the options always have.
 */
public final class EnumValues {
    private EnumValues() {}

    public static String text(Enum<?> value) {
        String own = value.toString();
        return own.equals(value.name()) ? value.name().toLowerCase(Locale.ROOT).replace('_', '-') : own;
    }

    public static String choices(Class<?> enumClass) {
        return Arrays.stream(enumClass.getEnumConstants()).map(e -> text((Enum<?>) e)).collect(Collectors.joining(", "));
    }

    /** The constant {@code raw} names, if any. */
    public static Optional<Enum<?>> find(Class<?> enumClass, String raw) {
        String wanted = normalize(raw);
        return Arrays.stream(enumClass.getEnumConstants()).<Enum<?>>map(e -> (Enum<?>) e)
                .filter(e -> normalize(e.name()).equals(wanted) || normalize(text(e)).equals(wanted))
                .findFirst();
    }

    private static String normalize(String s) {
        return s.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}

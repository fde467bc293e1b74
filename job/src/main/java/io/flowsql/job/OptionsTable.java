package io.flowsql.job;

import io.flowsql.config.EnumValues;

import io.flowsql.config.OptionFamily;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.description.Description;
import org.apache.flink.configuration.description.Formatter;
import org.apache.flink.configuration.description.TextElement;
import org.apache.flink.util.TimeUtils;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The job's options as a Markdown table (key, default, type, description), generated from the {@link ConfigOption}s in
 * {@link JobOptions}: what {@code --print-options} prints and docs/OPERATIONS.md contains.
 */
public final class OptionsTable {
    private OptionsTable() {}

    static final String HEADER = "| key | default | type | description |\n|---|---|---|---|\n";

    public static String markdown() {
        StringBuilder out = new StringBuilder(HEADER);
        for (ConfigOption<?> option : JobOptions.all()) {
            row(out, option.key(), defaultText(option.defaultValue()), typeName(option.defaultValue()), describe(option.description()));
        }
        for (OptionFamily<?> family : JobOptions.families()) {
            row(out, family.documentedKey(), "", typeName(family.valueClass()), family.description());
        }
        return out.toString();
    }

    private static void row(StringBuilder out, String key, String defaultText, String type, String description) {
        out.append("| `").append(key).append("` | ").append(defaultText.isEmpty() ? "" : "`" + defaultText + "`")
                .append(" | ").append(type).append(" | ").append(markdownText(description)).append(" |\n");
    }

    /** A description as one line of plain text (Flink's descriptions may hold links, line breaks and lists). */
    static String describe(Description description) {
        return new PlainText().format(description);
    }

    private static String defaultText(Object value) {
        if (value instanceof Duration d) {
            return TimeUtils.formatWithHighestUnit(d);
        }
        if (value instanceof Enum<?> e) {
            return EnumValues.text(e);
        }
        if (value instanceof List<?> list) {
            return list.stream().map(String::valueOf).collect(Collectors.joining(","));
        }
        return String.valueOf(value);
    }

    private static String typeName(Object defaultValue) {
        return defaultValue instanceof Enum<?> e ? "one of " + EnumValues.choices(e.getDeclaringClass())
                : defaultValue instanceof List<?> ? "list (comma-separated)"
                : typeName(defaultValue.getClass());
    }

    private static String typeName(Class<?> valueClass) {
        if (valueClass == Duration.class) {
            return "duration";
        }
        return valueClass == Integer.class ? "int" : valueClass.getSimpleName().toLowerCase(java.util.Locale.ROOT);
    }

    /** Keeps a description inside its table cell and its {@code <placeholders>} visible. */
    private static String markdownText(String text) {
        return text.replace("|", "\\|").replace("<", "\\<");
    }

    /** Flink's description formatter, writing plain text. */
    private static final class PlainText extends Formatter {
        @Override
        protected void formatLink(StringBuilder state, String link, String description) {
            state.append(description).append(" (").append(link).append(')');
        }

        @Override
        protected void formatLineBreak(StringBuilder state) {
            state.append(' ');
        }

        @Override
        protected void formatText(StringBuilder state, String format, String[] elements, EnumSet<TextElement.TextStyle> styles) {
            state.append(String.format(format, (Object[]) elements));
        }

        @Override
        protected void formatList(StringBuilder state, String[] entries) {
            state.append(String.join("; ", entries));
        }

        @Override
        protected Formatter newInstance() {
            return new PlainText();
        }
    }
}

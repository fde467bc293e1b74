package io.flowsql.agents.common;

import io.flowsql.sql.ValueMatch;
import java.util.List;

/** Writes database values the question mentions as {@code table.column = 'value'} lines, the form prompts and RequestContext.matchedValues share. */
public final class ValueText {
    private ValueText() {}

    public static String of(ValueMatch match) {
        return match.table() + "." + match.column() + " = " + quoted(match.value());
    }

    public static List<String> of(List<ValueMatch> matches) {
        return matches.stream().map(ValueText::of).toList();
    }

    /** A SQL string literal for the value. */
    public static String quoted(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    /** The lines for a prompt, or "(none)". */
    public static String forPrompt(List<String> lines) {
        return lines.isEmpty() ? "(none)" : String.join("\n", lines);
    }
}

package io.flowsql.access;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A database's error text with the data values taken out, for a question under a table-level policy: the error is
 * shown to the model (correction stages) and written to dead letters, and an engine puts values it read into some of
 * its errors ({@code invalid input syntax for type integer: "alice:250000"}). A quoted string or a number is kept only
 * when the statement itself contains it (then it came from the model's SQL, not from a table); any other becomes
 * {@code '?'} or {@code ?}.
 */
public final class ErrorRedaction {
    private static final Pattern VALUE = Pattern.compile(
            "'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|(?<![\\p{L}_\\d.])-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?(?![\\p{L}_\\d])");

    private ErrorRedaction() {}

    /** {@code message} without the values {@code sql} does not itself contain. */
    public static String redact(String message, String sql) {
        if (message == null || message.isEmpty()) {
            return message;
        }
        String source = sql == null ? "" : sql;
        Matcher m = VALUE.matcher(message);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String found = m.group();
            char first = found.charAt(0);
            boolean quoted = first == '\'' || first == '"';
            String inner = quoted ? found.substring(1, found.length() - 1) : found;
            String replacement = written(source, inner) ? found : quoted ? first + "?" + first : "?";
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** Whether {@code sql} contains {@code text} as a whole token (not inside a longer word or number). */
    private static boolean written(String sql, String text) {
        return !text.isEmpty() && Pattern.compile("(?<![\\p{L}\\p{N}_])" + Pattern.quote(text) + "(?![\\p{L}\\p{N}_])")
                .matcher(sql).find();
    }
}

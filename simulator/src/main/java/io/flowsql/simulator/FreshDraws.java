package io.flowsql.simulator;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sampling that never repeats itself: every SQL block of every answer is wrapped as
 * {@code SELECT * FROM (<sql>) AS draw_<n>} with a server-wide draw number, so the same prompt asked twice
 * gets a different (but equally correct) query. Tests use it to tell a decision the model made once from
 * one it was asked to make again.
 */
public final class FreshDraws {
    private static final Pattern SQL_BLOCK = Pattern.compile("```sql\\s*\\n(.*?)\\n?```", Pattern.DOTALL);
    private static final Pattern DRAW = Pattern.compile("\\bdraw_(\\d+)\\b");

    private final AtomicLong draws = new AtomicLong();

    /** The choices with each SQL block given its own draw number; text without SQL is returned unchanged. */
    public List<String> mark(List<String> choices) {
        return choices.stream().map(this::markOne).toList();
    }

    private String markOne(String choice) {
        Matcher m = SQL_BLOCK.matcher(choice);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String sql = m.group(1).strip();
            while (sql.endsWith(";")) {
                sql = sql.substring(0, sql.length() - 1).strip();
            }
            String wrapped = "```sql\nSELECT * FROM (" + sql + ") AS draw_" + draws.incrementAndGet() + "\n```";
            m.appendReplacement(out, Matcher.quoteReplacement(wrapped));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** The draw numbers in a text (e.g. an answer's SQL), in order of appearance. */
    public static List<Long> drawsIn(String text) {
        if (text == null) {
            return List.of();
        }
        return DRAW.matcher(text).results().map(r -> Long.parseLong(r.group(1))).toList();
    }
}

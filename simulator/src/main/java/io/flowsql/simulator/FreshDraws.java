package io.flowsql.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sampling that never repeats itself: every SQL block of every answer (or every query string of a JSON reply) is wrapped as
 * {@code SELECT * FROM (<sql>) AS draw_<n>} with a server-wide draw number, so the same prompt asked twice
 * gets a different (but equally correct) query. Tests use it to tell a decision the model made once from
 * one it was asked to make again.
 */
public final class FreshDraws {
    private static final Pattern SQL_BLOCK = Pattern.compile("```sql\\s*\\n(.*?)\\n?```", Pattern.DOTALL);
    private static final Pattern QUERY = Pattern.compile("\\s*(SELECT|WITH)\\s", Pattern.CASE_INSENSITIVE);
    private static final Pattern DRAW = Pattern.compile("\\bdraw_(\\d+)\\b");

    private static final ObjectMapper JSON = new ObjectMapper();

    private final AtomicLong draws = new AtomicLong();

    /** The choices with each SQL block given its own draw number; text without SQL is returned unchanged. */
    public List<String> mark(List<String> choices) {
        return choices.stream().map(this::markOne).toList();
    }

    private String markOne(String choice) {
        String json = markJson(choice);
        if (json != null) {
            return json;
        }
        Matcher m = SQL_BLOCK.matcher(choice);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String sql = m.group(1);
            String wrapped = "```sql\n" + wrap(sql) + "\n```";
            m.appendReplacement(out, Matcher.quoteReplacement(wrapped));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** A JSON reply (structured output) with every string that is a query (starts with SELECT or WITH) wrapped, or null. */
    private String markJson(String choice) {
        if (!choice.stripLeading().startsWith("{")) {
            return null;
        }
        try {
            JsonNode node = JSON.readTree(choice);
            if (!(node instanceof ObjectNode object)) {
                return null;
            }
            markQueries(object);
            return JSON.writeValueAsString(object);
        } catch (IOException e) {
            return null;
        }
    }

    private void markQueries(JsonNode node) {
        if (node instanceof ObjectNode object) {
            object.fieldNames().forEachRemaining(name -> {
                JsonNode value = object.get(name);
                if (value.isTextual() && QUERY.matcher(value.asText()).lookingAt()) {
                    object.put(name, wrap(value.asText()));
                } else {
                    markQueries(value);
                }
            });
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                JsonNode value = array.get(i);
                if (value.isTextual() && QUERY.matcher(value.asText()).lookingAt()) {
                    array.set(i, JSON.getNodeFactory().textNode(wrap(value.asText())));
                } else {
                    markQueries(value);
                }
            }
        }
    }

    private String wrap(String sql) {
        String bare = sql.strip();
        while (bare.endsWith(";")) {
            bare = bare.substring(0, bare.length() - 1).strip();
        }
        return "SELECT * FROM (" + bare + ") AS draw_" + draws.incrementAndGet();
    }

    /** The draw numbers in a text (e.g. an answer's SQL), in order of appearance. */
    public static List<Long> drawsIn(String text) {
        if (text == null) {
            return List.of();
        }
        return DRAW.matcher(text).results().map(r -> Long.parseLong(r.group(1))).toList();
    }
}

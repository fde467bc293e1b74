package io.flowsql.agents.common;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what a model wrote, strictly: SQL only from a ```sql fence or a {@code #SQL:} / {@code SQL:}
 * section and only when it starts like a query, JSON only from a fence or a balanced block. It never
 * falls back to the raw text, so prose is never run as SQL (the failure Vanna's users hit).
 */
public final class ModelOutput {
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * Tag scanners by tag list: the agents' tag lists are constants of their code, so this stays small, and each
     * reply no longer sorts its tags (stop 47's profile of the sustained run).
     */
    private static final Map<List<String>, TagLines> TAG_LINES = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Pattern NOT_ALNUM = Pattern.compile("[^a-z0-9]+");
    /** A line starting a tagged SQL section: "#SQL:" or "SQL:" (not "#SQL-like:"). */
    private static final Pattern SQL_TAG = Pattern.compile("(?im)^[ \\t]*(?:#+[ \\t]*)?(?:final[ \\t]+)?SQL[ \\t]*:");
    /** Any "#tag:" line, which ends a section. */
    private static final Pattern ANY_TAG = Pattern.compile("(?m)^[ \\t]*#+[ \\t]*[A-Za-z][\\w\\- ]{0,40}:");
    /** A query: SELECT or WITH, after any leading comments and opening parentheses (lookingAt: then anything). */
    private static final Pattern QUERY_START = Pattern.compile("(?is)^(?:\\s*(?:--[^\\n]*(?:\\n|$)|/\\*.*?\\*/))*\\s*\\(*\\s*(SELECT|WITH)\\b");

    private ModelOutput() {}

    /**
     * The SQL the model gave: a structured reply's {@code sql} field, else the last ```sql fence, else the last
     * SQL-tagged section; empty when there is none.
     */
    public static Optional<String> sql(String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        Optional<JsonNode> structured = structured(text);
        if (structured.isPresent()) {
            return field(structured.get(), "SQL").flatMap(ModelOutput::asQuery);
        }
        Optional<String> fenced = lastQuery(CodeFences.SQL, text);
        if (fenced.isPresent()) {
            return fenced;
        }
        Matcher tag = SQL_TAG.matcher(text);
        int sectionStart = -1;
        while (tag.find()) {
            sectionStart = tag.end();
        }
        if (sectionStart >= 0) {
            String section = untilNextTag(text, sectionStart);
            Optional<String> inFence = lastQuery(CodeFences.PLAIN, section).or(() -> lastQuery(CodeFences.SQL, section));
            if (inFence.isPresent()) {
                return inFence;
            }
            return asQuery(section.replace("```", ""));
        }
        return lastQuery(CodeFences.PLAIN, text);
    }

    /** JSON from a ```json fence, else the first balanced {...} or [...] that parses. */
    public static Optional<JsonNode> json(String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        for (String fenced : CodeFences.JSON.contents(text)) {
            Optional<JsonNode> parsed = parse(fenced);
            if (parsed.isPresent()) {
                return parsed;
            }
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '{' || c == '[') {
                int end = balancedEnd(text, i);
                if (end > i) {
                    Optional<JsonNode> parsed = parse(text.substring(i, end + 1));
                    if (parsed.isPresent()) {
                        return parsed;
                    }
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Sections such as {@code #reason: ...} up to the next of the given tags (matched case-insensitively,
     * longest first so {@code #SQL-like} is not read as {@code #SQL}); a tag that appears twice keeps its
     * last section. Keys are the tags as given; absent tags are absent.
     */
    public static Map<String, String> tagged(String text, List<String> tags) {
        Map<String, String> sections = new LinkedHashMap<>();
        if (text == null || tags.isEmpty()) {
            return sections;
        }
        Optional<JsonNode> structured = structured(text);
        if (structured.isPresent()) {
            for (String tag : tags) {
                field(structured.get(), tag).ifPresent(value -> sections.put(tag, value.strip()));
            }
            return sections;
        }
        String currentTag = null;
        int contentStart = 0;
        for (TagLines.Opening opening : TAG_LINES.computeIfAbsent(List.copyOf(tags), TagLines::new).openings(text)) {
            if (currentTag != null) {
                sections.put(currentTag, text.substring(contentStart, opening.start()).trim());
            }
            currentTag = canonical(tags, opening.written());
            contentStart = opening.contentStart();
        }
        if (currentTag != null) {
            sections.put(currentTag, text.substring(contentStart).trim());
        }
        return sections;
    }

    /**
     * A structured reply (the stage's reply schema): the whole text is one JSON object. Text replies with a
     * JSON block inside are not structured replies.
     */
    private static Optional<JsonNode> structured(String text) {
        String trimmed = text.strip();
        if (!trimmed.startsWith("{") || !trimmed.endsWith("}")) {
            return Optional.empty();
        }
        return parse(trimmed).filter(JsonNode::isObject);
    }

    /** A structured reply's field for a text tag: "SQL-like" is the field sql_like, matched case-insensitively. */
    private static Optional<String> field(JsonNode reply, String tag) {
        String wanted = NOT_ALNUM.matcher(tag.toLowerCase(java.util.Locale.ROOT)).replaceAll("_");
        for (var entry : reply.properties()) {
            if (NOT_ALNUM.matcher(entry.getKey().toLowerCase(java.util.Locale.ROOT)).replaceAll("_").equals(wanted)) {
                JsonNode value = entry.getValue();
                if (value.isTextual()) {
                    return Optional.of(value.asText());
                }
                if (value.isArray()) {
                    List<String> items = new ArrayList<>();
                    value.forEach(item -> items.add(item.asText()));
                    return Optional.of(String.join(", ", items));
                }
                return value.isNull() || value.isMissingNode() ? Optional.empty() : Optional.of(value.toString());
            }
        }
        return Optional.empty();
    }

    private static String canonical(List<String> tags, String found) {
        return tags.stream().filter(t -> t.equalsIgnoreCase(found)).findFirst().orElse(found);
    }

    private static Optional<String> lastQuery(CodeFences fence, String text) {
        Optional<String> last = Optional.empty();
        for (String content : fence.contents(text)) {
            Optional<String> query = asQuery(content);
            if (query.isPresent()) {
                last = query;
            }
        }
        return last;
    }

    private static String untilNextTag(String text, int from) {
        Matcher next = ANY_TAG.matcher(text);
        return next.find(from) ? text.substring(from, next.start()) : text.substring(from);
    }

    /** The text as one query when it starts like one, without trailing semicolons. */
    static Optional<String> asQuery(String candidate) {
        String sql = candidate.trim();
        while (sql.endsWith(";")) {
            sql = sql.substring(0, sql.length() - 1).trim();
        }
        if (sql.isEmpty() || !QUERY_START.matcher(sql).lookingAt()) {
            return Optional.empty();
        }
        return Optional.of(sql);
    }

    private static Optional<JsonNode> parse(String candidate) {
        try {
            JsonNode node = JSON.readTree(candidate.trim());
            return node == null || node.isMissingNode() || !(node.isObject() || node.isArray())
                    ? Optional.empty() : Optional.of(node);
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }

    /** Index of the bracket closing the one at {@code start}, respecting JSON strings; -1 when unbalanced. */
    private static int balancedEnd(String text, int start) {
        int depth = 0;
        boolean inString = false;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                depth--;
                if (depth == 0) {
                    return i;
                }
            }
        }
        return -1;
    }

}

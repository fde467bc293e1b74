package io.flowsql.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Extra constraints laid over every reply schema before it is sent ({@code llm.reply-overlay}): for a model too
 * weak to stop on its own or to write SQL, such as the tests' tiny random-weight model. The shipped schemas bound
 * structure only (docs/LLM.md); an overlay bounds text. It is a JSON object
 * <pre>{"properties": {"sql": {"pattern": "^(SELECT|WITH) ...$"}}, "strings": {"maxLength": 120}}</pre>
 * whose {@code properties} entries are set on the free string (no enum/const, no {@code maxLength: 0}) a property
 * of that name holds, directly or as array items, and whose {@code strings} entry on every other free string.
 * The value is the JSON text itself or the path of a file holding it.
 */
public final class ReplyOverlay {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final JsonNode byProperty;
    private final JsonNode everyString;
    private final Map<ReplySchema, ReplySchema> applied = new ConcurrentHashMap<>();

    private ReplyOverlay(JsonNode overlay) {
        this.byProperty = overlay.path("properties");
        this.everyString = overlay.path("strings");
    }

    /** The overlay named by an option's value (JSON text, or a file path); null or blank for none. */
    public static ReplyOverlay parse(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String text = value.strip();
        try {
            if (!text.startsWith("{")) {
                text = Files.readString(Path.of(text));
            }
            JsonNode node = JSON.readTree(text);
            if (!node.isObject()) {
                throw new IllegalArgumentException("llm.reply-overlay must be a JSON object: " + value);
            }
            return new ReplyOverlay(node);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read llm.reply-overlay " + value, e);
        }
    }

    /** The schema with the overlay laid on (made once per schema and kept). */
    public ReplySchema apply(ReplySchema reply) {
        return applied.computeIfAbsent(reply, r -> r.transformed(schema -> visit(schema, null)));
    }

    private void visit(JsonNode node, String property) {
        if (node instanceof ObjectNode object) {
            if (isFreeString(object)) {
                JsonNode keywords = property != null && byProperty.has(property) ? byProperty.get(property) : everyString;
                keywords.properties().forEach(e -> object.set(e.getKey(), e.getValue().deepCopy()));
            }
            object.properties().forEach(e -> {
                if (e.getKey().equals("properties")) {
                    e.getValue().properties().forEach(p -> visit(p.getValue(), p.getKey()));
                } else if (e.getKey().equals("items")) {
                    visit(e.getValue(), property);
                } else {
                    visit(e.getValue(), null);
                }
            });
        } else if (node != null && node.isArray()) {
            node.forEach(child -> visit(child, null));
        }
    }

    private static boolean isFreeString(ObjectNode node) {
        return "string".equals(node.path("type").asText()) && !node.has("enum") && !node.has("const")
                && node.path("maxLength").asInt(-1) != 0;
    }
}

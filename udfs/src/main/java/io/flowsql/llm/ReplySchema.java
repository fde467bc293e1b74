package io.flowsql.llm;

import io.flowsql.config.llm.StructuredOutput;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;

/**
 * The shape of one stage's reply, declared once as a JSON Schema (a resource such as
 * {@code prompts/mmsql/detect.reply.json}); the client turns it into {@code response_format: json_schema},
 * a GBNF grammar or {@code json_object} as configured ({@link StructuredOutput}). The schema's
 * {@code x-max-tokens} is the stage's default reply budget ({@code max_tokens}).
 */
public final class ReplySchema {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MAX_TOKENS = "x-max-tokens";

    private final String name;
    private final ObjectNode schema;
    /** The schema as sent, without the x- extensions: made once, shared by every request body (never changed). */
    private final ObjectNode wire;

    private ReplySchema(String name, ObjectNode schema) {
        this.name = Objects.requireNonNull(name, "name");
        this.schema = schema;
        this.wire = schema.deepCopy();
        stripExtensions(wire);
    }

    /** A schema from JSON text; {@code name} becomes the json_schema name (letters, digits, _ and - only). */
    public static ReplySchema of(String name, String schemaJson) {
        try {
            JsonNode node = JSON.readTree(schemaJson);
            if (!(node instanceof ObjectNode object)) {
                throw new IllegalArgumentException("reply schema " + name + " is not a JSON object");
            }
            return new ReplySchema(name.replaceAll("[^A-Za-z0-9_-]", "_"), object);
        } catch (IOException e) {
            throw new IllegalArgumentException("reply schema " + name + " is not valid JSON: " + e.getMessage(), e);
        }
    }

    /** Loads {@code resource} from the classpath when it exists. */
    public static Optional<ReplySchema> loadOptional(String name, String resource) {
        try (InputStream in = ReplySchema.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                return Optional.empty();
            }
            return Optional.of(of(name, new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read reply schema " + resource, e);
        }
    }

    public String name() {
        return name;
    }

    /** The schema as sent (without the project's {@code x-} keys). */
    public ObjectNode schema() {
        return wire.deepCopy();
    }

    /** The schema as sent, shared: for the request body's encoder, which only reads it. */
    ObjectNode wireSchema() {
        return wire;
    }

    /** The stage's default reply budget, when the schema declares one. */
    public Optional<Integer> maxTokens() {
        JsonNode value = schema.get(MAX_TOKENS);
        return value != null && value.canConvertToInt() ? Optional.of(value.asInt()) : Optional.empty();
    }

    /**
     * A copy whose string node at {@code pointer} (a JSON Pointer into the schema, e.g.
     * {@code /properties/entities/items/properties/columns/items}) only admits the given values: for
     * replies that must name something of the request, such as a column of the database.
     */
    public ReplySchema withEnum(String pointer, Collection<String> values) {
        ObjectNode copy = schema.deepCopy();
        JsonNode target = copy.at(pointer);
        if (!(target instanceof ObjectNode node)) {
            throw new IllegalArgumentException("reply schema " + name + " has no object at " + pointer);
        }
        ArrayNode allowed = node.putArray("enum");
        values.forEach(allowed::add);
        node.remove("maxLength");
        node.remove("pattern");
        return new ReplySchema(name, copy);
    }

    /** A copy with {@code key} (e.g. minItems) of the node at {@code pointer} set to {@code value}. */
    public ReplySchema withNumber(String pointer, String key, int value) {
        ObjectNode copy = schema.deepCopy();
        if (!(copy.at(pointer) instanceof ObjectNode node)) {
            throw new IllegalArgumentException("reply schema " + name + " has no object at " + pointer);
        }
        node.put(key, value);
        return new ReplySchema(name, copy);
    }

    /** A copy where the object at {@code pointer} has exactly the given string-valued properties, all required. */
    public ReplySchema withStringProperties(String pointer, Collection<String> properties, int maxLength) {
        ObjectNode copy = schema.deepCopy();
        JsonNode target = copy.at(pointer);
        if (!(target instanceof ObjectNode node)) {
            throw new IllegalArgumentException("reply schema " + name + " has no object at " + pointer);
        }
        ObjectNode props = node.putObject("properties");
        ArrayNode required = node.putArray("required");
        for (String property : properties) {
            props.putObject(property).put("type", "string").put("maxLength", maxLength);
            required.add(property);
        }
        node.put("additionalProperties", false);
        return new ReplySchema(name, copy);
    }

    /** A copy changed by {@code change} (given a deep copy of the schema, x- keys included). */
    ReplySchema transformed(java.util.function.Consumer<ObjectNode> change) {
        ObjectNode copy = schema.deepCopy();
        change.accept(copy);
        return new ReplySchema(name, copy);
    }

    private static void stripExtensions(JsonNode node) {
        if (node instanceof ObjectNode object) {
            object.remove(object.properties().stream().map(java.util.Map.Entry::getKey)
                    .filter(key -> key.startsWith("x-")).toList());
            object.forEach(ReplySchema::stripExtensions);
        } else if (node instanceof ArrayNode array) {
            array.forEach(ReplySchema::stripExtensions);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ReplySchema that && name.equals(that.name) && schema.equals(that.schema);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, schema);
    }

    @Override
    public String toString() {
        return "ReplySchema{" + name + "}";
    }
}

package io.flowsql.knowledge;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Predicate;

/**
 * Reads one knowledge record as feedback is read: bounded size, strict JSON, the knowledge schema
 * (schemas/knowledge.schema.json), a database the job knows; anything else is refused with the reason (never thrown).
 */
public final class KnowledgeRecords {
    public static final String SCHEMA = "schemas/knowledge.schema.json";
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);
    private static final JsonSchema VALIDATOR = load();

    private final Predicate<String> knownDatabase;
    private final int maxBytes;

    public KnowledgeRecords(Predicate<String> knownDatabase, int maxBytes) {
        this.knownDatabase = knownDatabase;
        this.maxBytes = maxBytes;
    }

    /** The entry, or the reason it was refused ({@code too_large}, {@code not_json}, {@code schema}, {@code unknown_database}). */
    public record Read(KnowledgeEntry entry, String refusal) {
        public boolean isValid() {
            return entry != null;
        }
    }

    public Read read(byte[] value, long timestampMillis) {
        if (value == null || value.length > maxBytes) {
            return refused("too_large: " + (value == null ? "no value" : value.length + " bytes > " + maxBytes));
        }
        JsonNode node;
        try {
            node = JSON.readTree(new String(value, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return refused("not_json: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (node == null || !node.isObject()) {
            return refused("not_json: not one JSON object");
        }
        List<String> violations = violations(node);
        if (!violations.isEmpty()) {
            return refused("schema: " + String.join("; ", violations));
        }
        KnowledgeEntry entry = new KnowledgeEntry();
        entry.knowledgeId = node.path("knowledge_id").asText();
        entry.action = node.path("action").asText();
        entry.timestampMillis = timestampMillis;
        if (KnowledgeEntry.RETRACT.equals(entry.action)) {
            entry.retracts = node.path("retracts").asText();
            return new Read(entry, null);
        }
        entry.dbId = node.path("db_id").asText();
        if (!knownDatabase.test(entry.dbId)) {
            return refused("unknown_database: " + entry.dbId);
        }
        entry.schema = text(node, "schema");
        entry.tenant = text(node, "tenant");
        entry.term = node.path("term").asText().strip();
        entry.definition = node.path("definition").asText().strip();
        return new Read(entry, null);
    }

    /**
     * An {@code add} record as the CLI and the console send it: {@code schema} and {@code tenant} only when given
     * (null: none), stamped with the time it is sent. Check it with {@link #violations} before sending.
     */
    public static com.fasterxml.jackson.databind.node.ObjectNode addition(String knowledgeId, String dbId, String term,
                                                                       String definition, String schema, String tenant) {
        com.fasterxml.jackson.databind.node.ObjectNode record = JSON.createObjectNode().put("action", KnowledgeEntry.ADD)
                .put("knowledge_id", knowledgeId).put("db_id", dbId).put("term", term).put("definition", definition)
                .put("sent_at", java.time.Instant.now().toString());
        if (schema != null) {
            record.put("schema", schema);
        }
        if (tenant != null) {
            record.put("tenant", tenant);
        }
        return record;
    }

    /** Violations of the knowledge schema, sorted, empty when valid. */
    public static List<String> violations(JsonNode node) {
        return VALIDATOR.validate(node).stream().map(ValidationMessage::getMessage).sorted().toList();
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() || v.asText().isBlank() ? null : v.asText().strip();
    }

    private static Read refused(String reason) {
        return new Read(null, reason);
    }

    private static JsonSchema load() {
        try (InputStream in = KnowledgeRecords.class.getClassLoader().getResourceAsStream(SCHEMA)) {
            if (in == null) {
                throw new IllegalStateException("schema missing from the classpath: " + SCHEMA);
            }
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

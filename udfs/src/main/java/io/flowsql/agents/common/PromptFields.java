package io.flowsql.agents.common;

import io.flowsql.sql.engine.DatabaseEngine;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The values of a prompt's {@code {{placeholders}}}: the one type every agent fills a {@link PromptPair} with.
 * It starts from the fields every agent shares ({@code db_id}, {@code question}, {@code evidence},
 * {@code history}, {@code schema}), read from the request once by {@link SchemaContext#promptFields} so each
 * stage shows the model the same labelled lines; a stage adds its own with {@link #with}.
 *
 * <p>Immutable: {@link #with} and {@link #asking} return a new value, so an agent asking several variants of one
 * request (paraphrases, sub-questions, correction rounds) derives each from the same fields. A field set to
 * null counts as missing, and rendering a template that names it fails loudly.
 */
public final class PromptFields {
    private static final PromptFields NONE = new PromptFields(Map.of());

    private final Map<String, String> values;

    private PromptFields(Map<String, String> values) {
        this.values = values;
    }

    /** No field at all (prompts without placeholders, or a start for {@link #with}). */
    public static PromptFields none() {
        return NONE;
    }

    /**
     * The shared fields from values in hand (each becomes one line; tests and callers outside a request), for a SQLite
     * database; {@link #withEngine} names another engine.
     */
    public static PromptFields shared(String dbId, String question, String evidence, String history, String schema) {
        return EngineDialectText.fill(none(), DatabaseEngine.embedded()).with("db_id", dbId).with("question", SchemaContext.oneLine(question))
                .with("evidence", evidence == null || evidence.isBlank() ? SchemaContext.NO_EVIDENCE : SchemaContext.oneLine(evidence))
                .with("history", history).with("schema", schema);
    }

    /** These fields and one more (or another value for one of them); the value's text, null for missing. */
    public PromptFields with(String name, Object value) {
        Objects.requireNonNull(name, "name");
        Map<String, String> next = new HashMap<>(values);
        next.put(name, value == null ? null : String.valueOf(value));
        return new PromptFields(Collections.unmodifiableMap(next));
    }

    /** These fields for a database of this engine: its name, dialect rules and functions ({@link EngineDialectText}). */
    public PromptFields withEngine(DatabaseEngine engine) {
        return EngineDialectText.fill(this, engine);
    }

    /** The same fields asking about another text (a paraphrase, a reading, a sub-question), kept on one line. */
    public PromptFields asking(String otherQuestion) {
        return with("question", SchemaContext.oneLine(otherQuestion));
    }

    /** A field's text, or null when it is not set. */
    public String get(String name) {
        return values.get(name);
    }

    public String dbId() {
        return get("db_id");
    }

    public String question() {
        return get("question");
    }

    /** Every field by name, read-only (what a template renders from). */
    public Map<String, String> asMap() {
        return values;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PromptFields other && values.equals(other.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return "PromptFields" + values.keySet();
    }
}

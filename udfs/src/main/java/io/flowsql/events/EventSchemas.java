package io.flowsql.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Set;

/** The JSON Schemas of the four topics, loaded once from the classpath, so the code checks events against the documented contract. */
public final class EventSchemas {
    public static final String QUESTIONS = "schemas/questions.schema.json";
    public static final String ANSWERS = "schemas/answers.schema.json";
    public static final String DEAD_LETTERS = "schemas/dead-letters.schema.json";
    public static final String FEEDBACK = "schemas/feedback.schema.json";

    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    private static final JsonSchema QUESTIONS_SCHEMA = load(QUESTIONS);
    private static final JsonSchema ANSWERS_SCHEMA = load(ANSWERS);
    private static final JsonSchema DEAD_LETTERS_SCHEMA = load(DEAD_LETTERS);
    private static final JsonSchema FEEDBACK_SCHEMA = load(FEEDBACK);

    private EventSchemas() {}

    /** Violations of the questions schema, sorted, empty when valid. */
    public static List<String> questionViolations(JsonNode node) {
        return messages(QUESTIONS_SCHEMA.validate(node));
    }

    public static List<String> answerViolations(JsonNode node) {
        return messages(ANSWERS_SCHEMA.validate(node));
    }

    public static List<String> deadLetterViolations(JsonNode node) {
        return messages(DEAD_LETTERS_SCHEMA.validate(node));
    }

    /** Violations of the feedback schema, sorted, empty when valid. */
    public static List<String> feedbackViolations(JsonNode node) {
        return messages(FEEDBACK_SCHEMA.validate(node));
    }

    private static List<String> messages(Set<ValidationMessage> found) {
        return found.stream().map(ValidationMessage::getMessage).sorted().toList();
    }

    private static JsonSchema load(String resource) {
        try (InputStream in = EventSchemas.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("schema missing from the classpath: " + resource);
            }
            return FACTORY.getSchema(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

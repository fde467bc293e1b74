package io.flowsql.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/** The one JSON mapper of the events, so every producer and consumer reads and writes the same snake_case shape. */
public final class EventJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private EventJson() {}

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /**
     * Reads a question record: it must be one JSON object that satisfies the questions schema. Never
     * throws; a refusal carries its kind and the schema's message(s).
     */
    public static QuestionParse parseQuestion(byte[] value) {
        if (value == null || value.length == 0) {
            return QuestionParse.rejected(RejectKind.NOT_JSON, "empty record");
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(value);
        } catch (IOException e) {
            return QuestionParse.rejected(RejectKind.NOT_JSON, firstLine(e.getMessage()));
        }
        if (node == null || node.isMissingNode()) {
            return QuestionParse.rejected(RejectKind.NOT_JSON, "empty record");
        }
        List<String> violations = EventSchemas.questionViolations(node);
        if (!violations.isEmpty()) {
            return QuestionParse.rejected(RejectKind.SCHEMA, String.join("; ", violations));
        }
        try {
            return QuestionParse.ok(MAPPER.treeToValue(node, QuestionEvent.class));
        } catch (JsonProcessingException e) {
            return QuestionParse.rejected(RejectKind.SCHEMA, firstLine(e.getOriginalMessage()));
        }
    }

    public static AnswerEvent parseAnswer(byte[] value) {
        return read(value, AnswerEvent.class);
    }

    public static DeadLetterEvent parseDeadLetter(byte[] value) {
        return read(value, DeadLetterEvent.class);
    }

    public static byte[] toBytes(Object event) {
        try {
            return MAPPER.writeValueAsBytes(event);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot serialize " + event.getClass().getSimpleName(), e);
        }
    }

    public static String toJson(Object event) {
        try {
            return MAPPER.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot serialize " + event.getClass().getSimpleName(), e);
        }
    }

    private static <T> T read(byte[] value, Class<T> type) {
        try {
            return MAPPER.readValue(value, type);
        } catch (IOException e) {
            throw new UncheckedIOException("not a " + type.getSimpleName() + ": " + firstLine(e.getMessage()), e);
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}

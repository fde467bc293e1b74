package io.flowsql.events;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/** The one JSON mapper of the events, so every producer and consumer reads and writes the same snake_case shape. */
public final class EventJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    /** Reads exactly one JSON document: trailing data (a second object, garbage) and duplicate keys are errors. */
    private static final ObjectReader STRICT_TREE = MAPPER.reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .with(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private EventJson() {}

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /**
     * Reads a question record: it must be UTF-8 without a byte-order mark, exactly one JSON object (nothing after it,
     * no key twice) that satisfies the questions schema. Never throws; a refusal carries its kind and the reason.
     */
    public static QuestionParse parseQuestion(byte[] value) {
        return parse(value, EventSchemas::questionViolations, QuestionEvent.class, QuestionParse::ok, QuestionParse::rejected);
    }

    /**
     * Reads a feedback record with the same strictness as a question (UTF-8, no byte-order mark, exactly one JSON
     * object, no key twice) against the feedback schema. Never throws.
     */
    public static FeedbackParse parseFeedback(byte[] value) {
        return parse(value, EventSchemas::feedbackViolations, FeedbackEvent.class, FeedbackParse::ok, FeedbackParse::rejected);
    }

    /** A strictly read record checked against a schema, as the event or the refusal of its kind. */
    private static <T, P> P parse(byte[] value, Function<JsonNode, List<String>> schema, Class<T> type, Function<T, P> ok,
                                  BiFunction<RejectKind, String, P> rejected) {
        Strict strict = readStrict(value);
        if (strict.problem() != null) {
            return rejected.apply(RejectKind.NOT_JSON, strict.problem());
        }
        List<String> violations = schema.apply(strict.node());
        if (!violations.isEmpty()) {
            return rejected.apply(RejectKind.SCHEMA, String.join("; ", violations));
        }
        try {
            return ok.apply(MAPPER.treeToValue(strict.node(), type));
        } catch (JsonProcessingException e) {
            return rejected.apply(RejectKind.SCHEMA, firstLine(e.getOriginalMessage()));
        }
    }

    /** One strictly read JSON document, or why the bytes are not one. */
    private record Strict(JsonNode node, String problem) {}

    private static Strict readStrict(byte[] value) {
        if (value == null || value.length == 0) {
            return new Strict(null, "empty record");
        }
        if (value.length >= 3 && (value[0] & 0xff) == 0xEF && (value[1] & 0xff) == 0xBB && (value[2] & 0xff) == 0xBF) {
            return new Strict(null, "the record starts with a UTF-8 byte-order mark; send plain UTF-8 JSON");
        }
        String text = strictUtf8(value);
        if (text == null) {
            return new Strict(null, "not valid UTF-8");
        }
        JsonNode node;
        try {
            node = STRICT_TREE.readTree(text);
        } catch (IOException e) {
            String message = firstLine(e.getMessage());
            if (message.contains("Trailing token")) {
                message = "more than one JSON value, or data after the JSON object (" + message + ")";
            }
            return new Strict(null, message);
        }
        if (node == null || node.isMissingNode()) {
            return new Strict(null, "empty record");
        }
        return new Strict(node, null);
    }

    public static AnswerEvent parseAnswer(byte[] value) {
        return read(value, AnswerEvent.class);
    }

    /**
     * An answer as the job reads its own answers back (dialogue turns, the request-id check, the journal's release):
     * ids, question, type, status, SQL, the reply or error and the result's row count and first row. The trace,
     * candidates, readings, chart and the rest are skipped, not built: most of an answer's bytes, and each answer
     * read back is copied and sent on to the request-id check.
     */
    public static AnswerEvent parseAnswerReadBack(byte[] value) {
        AnswerEvent answer = read(READ_BACK, value, AnswerEvent.class);
        if (answer.result != null && answer.result.rows != null && answer.result.rows.size() > 1) {
            answer.result.rows = new ArrayList<>(answer.result.rows.subList(0, 1));
        }
        return answer;
    }

    /** The fields {@link #parseAnswerReadBack} skips. */
    @JsonIgnoreProperties({"trace", "candidates", "interpretations", "chart", "summary",
        "knowledge_used", "retrieved_tables"})
    private abstract static class ReadBackFields {
    }

    private static final ObjectReader READ_BACK = MAPPER.copy().addMixIn(AnswerEvent.class, ReadBackFields.class)
            .readerFor(AnswerEvent.class);

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
        return read(MAPPER.readerFor(type), value, type);
    }

    private static <T> T read(ObjectReader reader, byte[] value, Class<T> type) {
        try {
            return reader.readValue(value);
        } catch (IOException e) {
            throw new UncheckedIOException("not a " + type.getSimpleName() + ": " + firstLine(e.getMessage()), e);
        }
    }

    /** The text, or null when the bytes are not valid UTF-8. */
    private static String strictUtf8(byte[] value) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        CharBuffer out = CharBuffer.allocate(value.length);
        CoderResult result = decoder.decode(ByteBuffer.wrap(value), out, true);
        if (result.isError() || decoder.flush(out).isError()) {
            return null;
        }
        return out.flip().toString();
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}

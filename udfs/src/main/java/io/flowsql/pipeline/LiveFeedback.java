package io.flowsql.pipeline;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The live library's part of a request: the verified pairs and repairs learned from the feedback topic that the
 * {@code live-library} operator attached to the request (only its own database's, at most a few), as JSON in two
 * notes. They travel with the request, so a stage reads them without any shared mutable object and a request
 * replayed after a restore sees exactly what it saw before. See docs/AGENTS.md "Learning from feedback".
 */
public final class LiveFeedback {
    public static final String EXAMPLES_NOTE = "live.examples";
    public static final String REPAIRS_NOTE = "live.repairs";
    /** The prefix of a live example's id in {@code notes["fewshot.examples"]}: {@code feedback:<feedback id>}. */
    public static final String ID_PREFIX = "feedback:";
    private static final ObjectMapper JSON = new ObjectMapper();

    private LiveFeedback() {}

    /** A verified question and SQL of one database. */
    public record Example(String feedbackId, String dbId, String question, String evidence, String sql) {}

    /** A wrong SQL of a question and the SQL that replaced it. */
    public record Repair(String feedbackId, String dbId, String question, String wrongSql, String fixedSql, String whatWasWrong) {}

    /** Puts the examples and repairs into the request (replacing what was there); empty lists leave no note. */
    public static void attach(RequestContext ctx, List<Example> examples, List<Repair> repairs) {
        put(ctx, EXAMPLES_NOTE, examples);
        put(ctx, REPAIRS_NOTE, repairs);
    }

    public static List<Example> examples(RequestContext ctx) {
        return read(ctx.notes.get(EXAMPLES_NOTE), new TypeReference<List<Example>>() {}).stream()
                .filter(e -> e.dbId() != null && e.dbId().equals(ctx.dbId)).toList();
    }

    public static List<Repair> repairs(RequestContext ctx) {
        return read(ctx.notes.get(REPAIRS_NOTE), new TypeReference<List<Repair>>() {}).stream()
                .filter(r -> r.dbId() != null && r.dbId().equals(ctx.dbId)).toList();
    }

    /** Adds feedback ids to what the stage's trace says it used (no id twice). */
    public static void used(StageTrace trace, Collection<String> feedbackIds) {
        if (feedbackIds.isEmpty()) {
            return;
        }
        LinkedHashSet<String> all = new LinkedHashSet<>();
        if (trace.feedbackUsed != null && !trace.feedbackUsed.isBlank()) {
            all.addAll(List.of(trace.feedbackUsed.split(",")));
        }
        all.addAll(feedbackIds);
        trace.feedbackUsed = String.join(",", all);
    }

    private static void put(RequestContext ctx, String note, List<?> items) {
        if (items.isEmpty()) {
            ctx.notes.remove(note);
            return;
        }
        try {
            ctx.notes.put(note, JSON.writeValueAsString(items));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + note, e);
        }
    }

    private static <T> List<T> read(String note, TypeReference<List<T>> type) {
        if (note == null || note.isBlank()) {
            return List.of();
        }
        try {
            return JSON.readValue(note, type);
        } catch (JsonProcessingException e) {
            return List.of();
        }
    }
}

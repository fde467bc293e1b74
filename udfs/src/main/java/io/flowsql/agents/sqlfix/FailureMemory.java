package io.flowsql.agents.sqlfix;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.RequestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * SQLFixAgent's failure memory: the attempts of this one request that failed, with their errors, shown to
 * the refiner so it does not repeat them. It lives in the request (a note of the context), so it crosses
 * Flink operators and checkpoints with the request.
 */
public final class FailureMemory {
    /** The context note that keeps the refiner's own failed attempts. */
    public static final String NOTE = "sqlfix.failures";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<FailedAttempt> attempts;

    private FailureMemory(List<FailedAttempt> attempts) {
        this.attempts = new ArrayList<>(attempts);
    }

    public static FailureMemory empty() {
        return new FailureMemory(List.of());
    }

    /** The refiner's earlier failed attempts (from the note) and every candidate of the request that failed or returned nothing. */
    public static FailureMemory of(RequestContext ctx) {
        FailureMemory memory = new FailureMemory(readNote(ctx.notes.get(NOTE)));
        for (Candidate c : ctx.candidates) {
            if (c.executed && c.error != null) {
                memory.add(new FailedAttempt(c.source, c.sql, c.error));
            } else if (c.executed && c.rowCount == 0) {
                memory.add(new FailedAttempt(c.source, c.sql, "no rows"));
            }
        }
        return memory;
    }

    private static List<FailedAttempt> readNote(String note) {
        if (note == null || note.isBlank()) {
            return List.of();
        }
        try {
            return JSON.readValue(note, new TypeReference<List<FailedAttempt>>() {});
        } catch (JsonProcessingException e) {
            return List.of();
        }
    }

    public synchronized void add(FailedAttempt attempt) {
        boolean known = attempts.stream().anyMatch(a -> a.sql() != null && a.sql().equals(attempt.sql()));
        if (!known) {
            attempts.add(attempt);
        }
    }

    public synchronized List<FailedAttempt> attempts() {
        return List.copyOf(attempts);
    }

    /** Writes the refiner's own attempts (source {@link SqlRefiner#ATTEMPT_SOURCE}n) back into the context's note. */
    public synchronized void saveTo(RequestContext ctx) {
        List<FailedAttempt> own = attempts.stream().filter(a -> a.source() != null && a.source().startsWith(SqlRefiner.ATTEMPT_SOURCE)).toList();
        try {
            ctx.notes.put(NOTE, JSON.writeValueAsString(own));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the failure memory", e);
        }
    }

    /** The prompt text: one line per failed attempt, or "(none)". */
    public synchronized String render() {
        if (attempts.isEmpty()) {
            return "(none)";
        }
        return attempts.stream()
                .map(a -> "- " + SchemaContext.oneLine(a.sql()) + " -> " + SchemaContext.oneLine(a.error()))
                .collect(Collectors.joining("\n"));
    }
}

package io.flowsql.pipeline;

import java.util.Comparator;
import java.util.Optional;
import java.util.Set;

/**
 * Where a request asks for and carries its plain-language answer: the question's {@code options.summarize} travels as
 * a note, the written summary as another (notes cross operators and checkpoints with the request, so neither changes
 * the request's state type).
 */
public final class Summaries {
    /** Note of a question's {@code options.summarize} ({@code true} / {@code false}); absent: its preset decides. */
    public static final String REQUESTED_NOTE = "options.summarize";
    /** Note holding the written summary. */
    public static final String SUMMARY_NOTE = "answer.summary";

    private Summaries() {}

    /** Whether {@code ctx} wants a summary: its question says so, else its preset is one of {@code presets}. */
    public static boolean requested(RequestContext ctx, Set<String> presets) {
        String asked = ctx.notes.get(REQUESTED_NOTE);
        if (asked != null) {
            return Boolean.parseBoolean(asked);
        }
        return ctx.strategy != null && presets.contains(ctx.strategy);
    }

    /** Records the question's choice ({@code null}: the preset decides). */
    public static void request(RequestContext ctx, Boolean summarize) {
        if (summarize != null) {
            ctx.notes.put(REQUESTED_NOTE, summarize.toString());
        }
    }

    /** The summary a stage wrote for {@code ctx}, or null. */
    public static String of(RequestContext ctx) {
        return ctx.notes.get(SUMMARY_NOTE);
    }

    /**
     * The candidate whose rows an answer carries: executed without error, its SQL the final SQL (most votes first).
     * Its rows went through the tenant's access policy when they ran; the summary sees no other.
     */
    public static Optional<Candidate> answerCandidate(RequestContext ctx) {
        if (ctx.finalSql == null) {
            return Optional.empty();
        }
        return ctx.candidates.stream()
                .filter(c -> c.executed && c.error == null && ctx.finalSql.equals(c.sql))
                .max(Comparator.comparingInt(c -> c.votes));
    }
}

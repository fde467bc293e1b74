package io.flowsql.agents.sqlfix;

import io.flowsql.pipeline.RequestContext;
import java.util.Arrays;
import java.util.List;

/** Where the reviewer leaves its verdict in the request, for the crafter and refiner stages that follow it (possibly in other operators). */
public final class ReviewNotes {
    public static final String SQL = "sqlfix.reviewedSql";
    public static final String VERDICT = "sqlfix.verdict";
    public static final String REASONS = "sqlfix.reasons";
    public static final String FLAGGED = "flagged";
    public static final String CORRECT = "correct";

    private ReviewNotes() {}

    static void write(RequestContext ctx, String sql, ReviewVerdict verdict) {
        if (sql != null) {
            ctx.notes.put(SQL, sql);
        }
        ctx.notes.put(VERDICT, verdict.flagged() ? FLAGGED : CORRECT);
        ctx.notes.put(REASONS, String.join("\n", verdict.reasons()));
    }

    public static boolean flagged(RequestContext ctx) {
        return FLAGGED.equals(ctx.notes.get(VERDICT));
    }

    /** The reviewed SQL, or null when there was none to review. */
    public static String reviewedSql(RequestContext ctx) {
        return ctx.notes.get(SQL);
    }

    public static List<String> reasons(RequestContext ctx) {
        String reasons = ctx.notes.getOrDefault(REASONS, "");
        return reasons.isBlank() ? List.of() : Arrays.asList(reasons.split("\n"));
    }
}

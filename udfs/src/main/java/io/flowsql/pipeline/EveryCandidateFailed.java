package io.flowsql.pipeline;

import java.util.List;
import java.util.Optional;

/**
 * Whether a request's candidates ran and every one failed in the database (e.g. "no such table" after a table was
 * dropped): such a request fails as {@link FailureKind#SQL_ERROR} with the last error, rather than answer with SQL
 * that does not run.
 */
public final class EveryCandidateFailed {
    private EveryCandidateFailed() {}

    /** The failure message when candidates ran and none ran without an error; empty otherwise. */
    public static Optional<String> message(RequestContext ctx) {
        List<Candidate> ran = ctx.candidates.stream().filter(c -> c.executed).toList();
        if (ran.isEmpty() || ran.stream().anyMatch(c -> c.error == null)) {
            return Optional.empty();
        }
        return Optional.of((ran.size() == 1 ? "the only candidate" : "all " + ran.size() + " candidates")
                + " failed in the database; last error: " + ran.get(ran.size() - 1).error);
    }

    /** Fails the request as {@link FailureKind#SQL_ERROR} when every candidate that ran failed; true if it did. */
    public static boolean failIfSo(RequestContext ctx, String stage) {
        Optional<String> message = message(ctx);
        message.ifPresent(m -> {
            ctx.finalSql = null;
            ctx.fail(stage, FailureKind.SQL_ERROR, m);
        });
        return message.isPresent();
    }
}

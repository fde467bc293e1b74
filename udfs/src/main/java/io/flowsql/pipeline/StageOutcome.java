package io.flowsql.pipeline;

import java.util.Locale;

/** How one stage's run for one request ended (the trace entry's {@code outcome}). */
public enum StageOutcome {
    /** The stage did its work; the request goes on to the next stage. */
    COMPLETED,
    /** The stage settled the request without failing it (a reply without SQL, a clarification): later stages skip it. */
    SETTLED,
    /** The stage failed the request. */
    FAILED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}

package io.flowsql.pipeline;

/**
 * A stage's mode for one request: a question may pick it ({@code options.stage_modes}, e.g.
 * {@code {"opensearch.align": "rules"}} for an ablation), else the stage's configured default. The choice travels in
 * the request's notes under {@code options.mode.<stage>}, so it crosses operators and checkpoints with the request.
 */
public final class StageModes {
    /** Note prefix (followed by the stage name) of a question's chosen mode. */
    public static final String NOTE_PREFIX = "options.mode.";

    private StageModes() {}

    /** The mode {@code ctx} asks of stage {@code stage}, or {@code fallback} when it asks none. */
    public static String of(RequestContext ctx, String stage, String fallback) {
        String chosen = stage == null ? null : ctx.notes.get(NOTE_PREFIX + stage);
        return chosen == null || chosen.isBlank() ? fallback : chosen;
    }

    /** As {@link #of(RequestContext, String, String)} for the stage {@code trace} records. */
    public static String of(RequestContext ctx, StageTrace trace, String fallback) {
        return of(ctx, trace == null ? null : trace.stage, fallback);
    }

    /** Asks stage {@code stage} to run in {@code mode} for {@code ctx}. */
    public static void choose(RequestContext ctx, String stage, String mode) {
        ctx.notes.put(NOTE_PREFIX + stage, mode);
    }
}

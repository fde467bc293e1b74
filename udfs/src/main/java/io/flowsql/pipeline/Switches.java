package io.flowsql.pipeline;

/**
 * Behaviours inside a stage that one question can switch off, the way {@link RequestContext#disabledStages} switches
 * off a whole stage: a switch is named {@code <stage>.<behaviour>} (e.g. {@code magsql.generate.postprocess}) and is
 * off for a request whose disabled list names it. The engine's {@code StageSwitches} lists every switch.
 */
public final class Switches {
    private Switches() {}

    /** Whether {@code name} is on for this request (the job-wide setting {@code enabled} and not disabled per question). */
    public static boolean on(RequestContext ctx, String name, boolean enabled) {
        return enabled && !ctx.disabledStages.contains(name);
    }
}

package io.flowsql.agents.mmsql;

import io.flowsql.agents.common.AgentSettings;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Switches;
import java.io.Serializable;

/**
 * Where the {@code mmsql} preset follows the authors' code (mcxiaoxiao/MMSQL, branch {@code paper},
 * {@code multi-agent.py}) and where it makes its own choice:
 * <ul>
 *   <li>{@code selectByModel}: our selector asks the model which tables and columns to keep; the official code skips
 *       its selector and shows the full schema with three example rows per table (false gives that);</li>
 *   <li>{@code rewriteByModel}: our rewriter makes a follow-up self-contained; the official code comments its rewriter
 *       out (false passes every turn through, as a first turn is);</li>
 *   <li>{@code readingsDecomposeRefine}: an ambiguous turn's readings are answered as the authors do, by the
 *       decomposer and (when its SQL fails) the refiner (false: one generator call per reading, our earlier way);</li>
 *   <li>{@code readingsOriginalQuestion}: the turn as the user wrote it is answered too, after the readings, as the
 *       authors do (false: the readings only).</li>
 * </ul>
 * The selector and both readings behaviours can be switched off per question by their switch names.
 */
public record MmsqlRules(boolean selectByModel, boolean rewriteByModel, boolean readingsDecomposeRefine,
                         boolean readingsOriginalQuestion) implements Serializable {
    /** Per-question switch: the full schema with three example rows per table instead of the model's selection. */
    public static final String SELECT_BY_MODEL = "mmsql.select.model";
    /** Per-question switch: one generator call per reading instead of decomposer and refiner. */
    public static final String READINGS_DECOMPOSE_REFINE = "mmsql.readings.decompose-refine";
    /** Per-question switch: the turn as written is not answered beside its readings. */
    public static final String READINGS_ORIGINAL_QUESTION = "mmsql.readings.original-question";
    /** Example rows per table the official code shows instead of a selection. */
    public static final int EXAMPLE_ROWS = 3;

    public static MmsqlRules from(AgentSettings settings) {
        return new MmsqlRules(settings.mmsqlSelectByModel, settings.mmsqlRewriteByModel,
                settings.mmsqlReadingsDecomposeRefine, settings.mmsqlReadingsOriginalQuestion);
    }

    public MmsqlRules forRequest(RequestContext ctx) {
        return new MmsqlRules(Switches.on(ctx, SELECT_BY_MODEL, selectByModel), rewriteByModel,
                Switches.on(ctx, READINGS_DECOMPOSE_REFINE, readingsDecomposeRefine),
                Switches.on(ctx, READINGS_ORIGINAL_QUESTION, readingsOriginalQuestion));
    }
}

package io.flowsql.agents.magsql;

import io.flowsql.agents.common.AgentSettings;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Switches;
import java.io.Serializable;

/**
 * How MAG-SQL's generation stage refines and finishes a sub-SQL, after the authors' code (LancelotXWX/MAG-SQL,
 * {@code Refiner}): at most {@code refineRounds} refinements; NULLs send a result back only when the first five rows mix
 * NULL and non-NULL values and there is more than one row (or, our earlier rule, on any NULL); a "no such column" error
 * shows the full schema from then on; an empty nested query gets the nested-query hint; an accepted sub-SQL is
 * post-processed. The three behaviours can be switched off per question by their switch names.
 */
public record MagSqlRules(int refineRounds, boolean refineOnAnyNull, boolean schemaFallback, boolean nestedHint,
                         boolean postprocess) implements Serializable {
    /** Per-question switch: no full schema after "no such column". */
    public static final String SCHEMA_FALLBACK = "magsql.generate.schema-fallback";
    /** Per-question switch: no nested-query hint for an empty nested query. */
    public static final String NESTED_HINT = "magsql.generate.nested-hint";
    /** Per-question switch: no post-processing of accepted sub-SQL. */
    public static final String POSTPROCESS = "magsql.generate.postprocess";

    /** The job-wide rules from the settings. */
    public static MagSqlRules from(AgentSettings settings) {
        return new MagSqlRules(settings.magRefineRounds, settings.magRefineOnAnyNull, settings.magSchemaFallback,
                settings.magNestedHint, settings.magPostprocess);
    }

    /** These rules with the behaviours this request switched off. */
    public MagSqlRules forRequest(RequestContext ctx) {
        return new MagSqlRules(refineRounds, refineOnAnyNull, Switches.on(ctx, SCHEMA_FALLBACK, schemaFallback),
                Switches.on(ctx, NESTED_HINT, nestedHint), Switches.on(ctx, POSTPROCESS, postprocess));
    }
}

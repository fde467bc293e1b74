package io.flowsql.agents.opensearch.align;

import io.flowsql.agents.common.AgentSettings;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.pipeline.StageSql;
import java.util.ArrayList;
import java.util.List;

/** Builds the aligner from the settings' rule switches, so each rule can be turned off for an ablation. */
public final class AlignmentRules {
    private AlignmentRules() {}

    /**
     * @param database where the value rule's probes run and its values are looked up (for each question's scope: its
     *                 access policy applies)
     */
    public static ConsistencyAligner fromSettings(AgentSettings settings, StageSql database) {
        List<AlignmentRule> rules = new ArrayList<>();
        // first, so the value rule sees a double-quoted value as the text literal it is (a no-op on SQLite)
        rules.add(new DialectAlignment(id -> database == null ? DatabaseEngine.embedded() : database.engineOf(id)));
        if (settings.alignNullComparison) {
            rules.add(new NullComparison());
        }
        if (settings.alignValues) {
            rules.add(new ValueAlignment(database));
        }
        if (settings.alignMaxSubqueryToOrderBy) {
            rules.add(new MaxSubqueryToOrderBy());
        }
        if (settings.alignNotNullOnOrderBy) {
            rules.add(new NotNullOnOrderBy());
        }
        return new ConsistencyAligner(rules);
    }
}

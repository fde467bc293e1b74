package io.flowsql.engine;

import io.flowsql.agents.magsql.MagSqlRules;
import io.flowsql.agents.mmsql.MmsqlRules;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The behaviours inside a stage that one question can switch off ({@link io.flowsql.pipeline.Switches}): their names go
 * into a question's {@code options.disabled_stages} beside stage names, and the job accepts exactly the stage names and
 * these. Each is {@code <stage>.<behaviour>}; docs/AGENTS.md's ablation table lists them with their effect.
 */
public final class StageSwitches {
    private static final Map<String, String> SWITCHES = switches();

    private StageSwitches() {}

    private static Map<String, String> switches() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(MagSqlRules.SCHEMA_FALLBACK, "no full schema after a 'no such column' error: the refiner keeps the linked schema");
        m.put(MagSqlRules.NESTED_HINT, "an empty nested query is refined with the ordinary refine prompt");
        m.put(MagSqlRules.POSTPROCESS, "accepted sub-SQL stays as written (no column list for || ' ' ||, no NULLS LAST)");
        m.put(MmsqlRules.SELECT_BY_MODEL, "no selector call: the full schema with three example rows per table (the official code)");
        m.put(MmsqlRules.READINGS_DECOMPOSE_REFINE, "one generator call per reading (mmsql.readings task) instead of decomposer and refiner");
        m.put(MmsqlRules.READINGS_ORIGINAL_QUESTION, "the turn as written is not answered beside its readings");
        for (String name : m.keySet()) {
            String stage = name.substring(0, name.lastIndexOf('.'));
            if (StageRegistry.find(stage).isEmpty()) {
                throw new IllegalStateException("switch " + name + " names no stage " + stage);
            }
        }
        return m;
    }

    /** Every switch name, in the order of their stages. */
    public static List<String> names() {
        return List.copyOf(SWITCHES.keySet());
    }

    /** What switching {@code name} off does. */
    public static String effect(String name) {
        return SWITCHES.get(name);
    }
}

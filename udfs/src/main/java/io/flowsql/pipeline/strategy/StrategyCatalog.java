package io.flowsql.pipeline.strategy;

import io.flowsql.agents.common.AgentSettings;
import io.flowsql.agents.common.StageNames;
import io.flowsql.engine.Engine;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.Strategy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The named presets that compose the agents (one per paper, and {@code full}), each a subsequence of one
 * canonical stage order: the Flink job builds its operator chain from that order and skips the stages a
 * request's preset does not use, and single stages are switched off per request for ablations.
 */
public final class StrategyCatalog {
    private static final List<String> CANONICAL = List.of(
            StageNames.MMSQL_REWRITE,
            StageNames.MMSQL_SELECT,
            StageNames.MMSQL_DETECT,
            StageNames.MAGSQL_LINK,
            StageNames.MAGSQL_DECOMPOSE,
            StageNames.MAGSQL_GENERATE,
            StageNames.MMSQL_DECOMPOSE,
            StageNames.OPENSEARCH_FEWSHOT,
            StageNames.OPENSEARCH_GENERATE,
            StageNames.OPENSEARCH_ADHERENCE,
            StageNames.OPENSEARCH_ALIGN,
            StageNames.CANDIDATES_EXECUTE,
            StageNames.OPENSEARCH_CORRECT,
            StageNames.MMSQL_REFINE,
            StageNames.OPENSEARCH_VOTE,
            StageNames.SQLFIX_REVIEW,
            StageNames.SQLFIX_CRAFT,
            StageNames.SQLFIX_EXECUTE,
            StageNames.SQLFIX_REFINE,
            StageNames.MMSQL_READINGS,
            StageNames.ANSWER_FINALIZE);

    private static final Map<String, Set<String>> PRESETS = presets();

    private StrategyCatalog() {}

    private static Map<String, Set<String>> presets() {
        Map<String, Set<String>> p = new LinkedHashMap<>();
        p.put("mag-sql", Set.of(StageNames.MAGSQL_LINK, StageNames.MAGSQL_DECOMPOSE, StageNames.MAGSQL_GENERATE,
                StageNames.CANDIDATES_EXECUTE, StageNames.ANSWER_FINALIZE));
        // SQLFixAgent repairs the answer of a base generator: one OpenSearch-style generation.
        p.put("sqlfix", Set.of(StageNames.OPENSEARCH_GENERATE, StageNames.CANDIDATES_EXECUTE, StageNames.SQLFIX_REVIEW,
                StageNames.SQLFIX_CRAFT, StageNames.SQLFIX_EXECUTE, StageNames.SQLFIX_REFINE, StageNames.ANSWER_FINALIZE));
        p.put("opensearch", Set.of(StageNames.OPENSEARCH_FEWSHOT, StageNames.OPENSEARCH_GENERATE, StageNames.OPENSEARCH_ADHERENCE,
                StageNames.OPENSEARCH_ALIGN, StageNames.CANDIDATES_EXECUTE, StageNames.OPENSEARCH_CORRECT,
                StageNames.OPENSEARCH_VOTE, StageNames.ANSWER_FINALIZE));
        // MMSQL (Guo et al., Fig. 3): rewriter, then the four agents in the paper's order; readings for ambiguous turns.
        p.put("mmsql", Set.of(StageNames.MMSQL_REWRITE, StageNames.MMSQL_SELECT, StageNames.MMSQL_DETECT,
                StageNames.MMSQL_DECOMPOSE, StageNames.CANDIDATES_EXECUTE, StageNames.MMSQL_REFINE,
                StageNames.MMSQL_READINGS, StageNames.ANSWER_FINALIZE));
        p.put("full", Set.copyOf(CANONICAL));
        return p;
    }

    /** Every stage name in the one order all presets follow. */
    public static List<String> canonicalOrder() {
        return CANONICAL;
    }

    /** The preset names, in the order the documentation lists them. */
    public static Set<String> presetNames() {
        return PRESETS.keySet();
    }

    /** The stages of a preset in canonical order. */
    public static Set<String> stagesOf(String preset) {
        Set<String> members = PRESETS.get(preset);
        if (members == null) {
            throw new IllegalArgumentException("unknown strategy '" + preset + "'; valid strategies: "
                    + String.join(", ", PRESETS.keySet()));
        }
        Set<String> ordered = new LinkedHashSet<>();
        CANONICAL.stream().filter(members::contains).forEach(ordered::add);
        return ordered;
    }

    /** The preset's stages, built by the factory, in canonical order. */
    public static Strategy build(String name, StageFactory factory) {
        List<Stage> stages = new ArrayList<>();
        for (String stage : stagesOf(name)) {
            stages.add(factory.create(stage));
        }
        return new Strategy(name, stages);
    }

    /** The preset built from an engine's parts with {@link StageFactory#standard}; stages of one call share its repair memory. */
    public static Strategy build(String name, Engine engine, AgentSettings settings) {
        return build(name, StageFactory.standard(engine, settings));
    }
}

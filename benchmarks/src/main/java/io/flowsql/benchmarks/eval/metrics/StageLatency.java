package io.flowsql.benchmarks.eval.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Latency percentiles per pipeline stage and end to end, from the answers' traces. */
public final class StageLatency {
    public static final String TOTAL = "total";

    private StageLatency() {}

    /** Stage name → percentiles in milliseconds, stages in first-seen order, "total" (sum of a request's stages) last. */
    public static Map<String, Percentiles> of(List<ItemOutcome> outcomes) {
        Map<String, List<Long>> samples = new LinkedHashMap<>();
        List<Long> totals = new ArrayList<>();
        for (ItemOutcome o : outcomes) {
            if (o.stages().isEmpty()) {
                continue;
            }
            for (StageCost s : o.stages()) {
                samples.computeIfAbsent(s.stage(), k -> new ArrayList<>()).add(s.latencyMillis());
            }
            totals.add(o.latencyMillis());
        }
        Map<String, Percentiles> table = new LinkedHashMap<>();
        samples.forEach((stage, values) -> table.put(stage, Percentiles.of(values)));
        if (!totals.isEmpty()) {
            table.put(TOTAL, Percentiles.of(totals));
        }
        return table;
    }
}

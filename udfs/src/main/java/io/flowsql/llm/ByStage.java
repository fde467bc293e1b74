package io.flowsql.llm;

import java.util.Map;

/** Per-stage settings keyed by a stage name or a prefix of it ending at a dot ("mmsql" covers "mmsql.detect"). */
public final class ByStage {
    private ByStage() {}

    /** The value for a stage: an exact match, else the longest configured prefix ending at a dot, else null. */
    public static <V> V lookup(Map<String, V> values, String stage) {
        V exact = values.get(stage);
        if (exact != null) {
            return exact;
        }
        V best = null;
        int bestLength = -1;
        for (Map.Entry<String, V> entry : values.entrySet()) {
            String prefix = entry.getKey();
            if (stage.startsWith(prefix + ".") && prefix.length() > bestLength) {
                best = entry.getValue();
                bestLength = prefix.length();
            }
        }
        return best;
    }
}

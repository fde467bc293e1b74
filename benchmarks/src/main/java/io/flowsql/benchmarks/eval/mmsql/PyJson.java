package io.flowsql.benchmarks.eval.mmsql;

import com.fasterxml.jackson.databind.JsonNode;

/** What Python makes of a JSON value the way {@code accs_eval.py} uses it ({@code json.load}, then {@code dict.get}). */
final class PyJson {
    private PyJson() {}

    /**
     * Python truthiness: {@code False}, {@code None}, {@code 0}, {@code ""}, {@code []}, {@code {}} are false, anything else
     * true — so the string {@code "False"} (the multi-agent files write {@code "isuser": "False"}) is true.
     */
    static boolean truthy(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return false;
        }
        if (v.isBoolean()) {
            return v.booleanValue();
        }
        if (v.isNumber()) {
            return v.doubleValue() != 0;
        }
        if (v.isTextual()) {
            return !v.textValue().isEmpty();
        }
        return v.size() > 0;
    }

    /** {@code turn.get(key, default)} for a value used as a string; null when the value is not a string. */
    static String text(JsonNode turn, String key, String absent) {
        JsonNode v = turn.get(key);
        if (v == null) {
            return absent;
        }
        return v.isTextual() ? v.textValue() : null;
    }
}

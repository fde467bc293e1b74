package io.flowsql.agents.sqlfix;

import java.util.List;

/**
 * What SQLFixAgent's reviewer (§3.1) concluded about one SQL: correct, or flagged with reasons; {@code
 * byExecution} when the execution alone (an error or an empty result) flagged it without asking the model.
 */
public record ReviewVerdict(boolean flagged, List<String> reasons, String explanation, boolean byExecution) {
    public ReviewVerdict {
        reasons = List.copyOf(reasons);
        explanation = explanation == null ? "" : explanation;
    }

    public static ReviewVerdict correct(String explanation) {
        return new ReviewVerdict(false, List.of(), explanation, false);
    }

    public static ReviewVerdict flaggedByExecution(String reason) {
        return new ReviewVerdict(true, List.of(reason), "", true);
    }
}

package io.flowsql.agents.magsql;

import java.util.List;

/** MAG-SQL §3.2: what the question asks for, what restricts it, and the cumulative sub-questions (the last is the question). */
public record Decomposition(List<String> targets, List<String> conditions, List<String> subQuestions) {
    public Decomposition {
        targets = List.copyOf(targets);
        conditions = List.copyOf(conditions);
        subQuestions = List.copyOf(subQuestions);
    }
}

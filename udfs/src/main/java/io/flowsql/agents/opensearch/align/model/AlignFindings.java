package io.flowsql.agents.opensearch.align.model;

import java.util.List;

/**
 * What one alignment step found in a candidate: the SQL after the step's fixed rewrites (those the authors' code makes
 * without asking the model), the names of those rewrites, and the problems the model is asked to resolve (empty: no
 * call, as in the authors' code, where each check asks the model only when it fires).
 */
public record AlignFindings(String sql, List<String> rewrites, List<String> problems) {
    public AlignFindings {
        rewrites = List.copyOf(rewrites);
        problems = List.copyOf(problems);
    }

    public boolean asksTheModel() {
        return !problems.isEmpty();
    }
}

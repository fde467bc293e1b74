package io.flowsql.agents.opensearch.align;

import io.flowsql.sql.DatabaseSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Applies the switched-on alignment rules in order; a rule that fails is skipped, so alignment can only improve a candidate's form, never lose it. */
public final class ConsistencyAligner {
    private final List<AlignmentRule> rules;

    public ConsistencyAligner(List<AlignmentRule> rules) {
        this.rules = List.copyOf(rules);
    }

    /** The SQL after alignment and the names of the rules that changed it. */
    public record Aligned(String sql, List<String> appliedRules) {
        public boolean changed() {
            return !appliedRules.isEmpty();
        }
    }

    public Aligned align(String sql, DatabaseSchema schema) {
        String current = sql;
        List<String> applied = new ArrayList<>();
        for (AlignmentRule rule : rules) {
            Optional<String> rewritten;
            try {
                rewritten = rule.apply(current, schema);
            } catch (RuntimeException e) {
                rewritten = Optional.empty();
            }
            if (rewritten.isPresent() && !rewritten.get().equals(current)) {
                current = rewritten.get();
                applied.add(rule.name());
            }
        }
        return new Aligned(current, applied);
    }

    public List<String> ruleNames() {
        return rules.stream().map(AlignmentRule::name).toList();
    }
}

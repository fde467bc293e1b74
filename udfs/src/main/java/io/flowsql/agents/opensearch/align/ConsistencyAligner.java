package io.flowsql.agents.opensearch.align;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.flowsql.sql.DatabaseSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Applies the switched-on alignment rules in order; a rule that fails is skipped, so alignment can only improve a candidate's form, never lose it. */
public final class ConsistencyAligner {
    private final List<AlignmentRule> rules;
    /**
     * Results by database and SQL text: a rule's outcome depends only on them (the schema and the database's values
     * are fixed for a run), and a question's candidates are often the same text; each rule parses the SQL again.
     */
    private final Cache<String, Aligned> results = Caffeine.newBuilder().maximumSize(10_000).build();

    public ConsistencyAligner(List<AlignmentRule> rules) {
        this.rules = List.copyOf(rules);
    }

    /** The SQL after alignment and the names of the rules that changed it. */
    public record Aligned(String sql, List<String> appliedRules) {
        public Aligned {
            appliedRules = List.copyOf(appliedRules);
        }

        public boolean changed() {
            return !appliedRules.isEmpty();
        }
    }

    public Aligned align(String sql, DatabaseSchema schema) {
        if (sql == null) {
            return alignOnce(null, schema);
        }
        return results.get(schema.dbId() + '\u0000' + sql, key -> alignOnce(sql, schema));
    }

    private Aligned alignOnce(String sql, DatabaseSchema schema) {
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

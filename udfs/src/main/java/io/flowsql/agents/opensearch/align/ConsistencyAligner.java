package io.flowsql.agents.opensearch.align;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.flowsql.pipeline.Cancellation;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.DatabaseUnavailable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
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

    /** An aligner with only the rules of these names (e.g. the dialect rule, which both alignment modes apply). */
    public ConsistencyAligner only(Set<String> names) {
        return new ConsistencyAligner(rules.stream().filter(r -> names.contains(r.name())).toList());
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
        return align(sql, schema, null);
    }

    /**
     * As {@link #align(String, DatabaseSchema)} within a stage whose {@code cancellation} (when not null) stops the
     * rules' SQL probes; once it is cancelled the remaining rules are skipped and the outcome is not remembered (a
     * probe cut short says nothing about the database).
     */
    public Aligned align(String sql, DatabaseSchema schema, Cancellation cancellation) {
        if (sql == null) {
            return alignOnce(null, schema, cancellation);
        }
        String key = schema.dbId() + '\u0000' + sql;
        Aligned known = results.getIfPresent(key);
        if (known != null) {
            return known;
        }
        Aligned aligned = alignOnce(sql, schema, cancellation);
        if (cancellation == null || !cancellation.isCancelled()) {
            results.put(key, aligned);
        }
        return aligned;
    }

    private Aligned alignOnce(String sql, DatabaseSchema schema, Cancellation cancellation) {
        String current = sql;
        List<String> applied = new ArrayList<>();
        for (AlignmentRule rule : rules) {
            if (cancellation != null && cancellation.isCancelled()) {
                break;
            }
            Optional<String> rewritten;
            try {
                rewritten = rule.apply(current, schema, cancellation);
            } catch (DatabaseUnavailable e) {
                throw e; // the question fails here (database_unavailable), not only the rule
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

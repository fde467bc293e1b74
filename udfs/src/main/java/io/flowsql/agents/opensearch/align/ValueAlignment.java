package io.flowsql.agents.opensearch.align;

import io.flowsql.agents.common.ValueText;
import io.flowsql.pipeline.StageSql;
import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.ValueMatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.text.similarity.JaroWinklerSimilarity;

/**
 * OpenSearch-SQL §3.4 value alignment: a text literal compared with a column is replaced by a value that
 * exists in that column, but only when the literal itself does not exist there and a close value does
 * (found by the value index, else among the column's distinct values). A correct literal is never touched.
 */
public final class ValueAlignment implements AlignmentRule {
    private static final JaroWinklerSimilarity SIMILARITY = new JaroWinklerSimilarity();
    private static final int DISTINCT_VALUE_CAP = 5000;

    private final StageSql database;
    private final double minSimilarity;

    /** @param database where the probes run and values are looked up, through each question's door */
    public ValueAlignment(StageSql database) {
        this(database, 0.85);
    }

    public ValueAlignment(StageSql database, double minSimilarity) {
        this.database = database;
        this.minSimilarity = minSimilarity;
    }

    @Override
    public String name() {
        return "value";
    }

    @Override
    public Optional<String> apply(String sql, DatabaseSchema schema) {
        return apply(sql, schema, null);
    }

    /**
     * The probes (does the literal exist, which values are close) run for {@code scope} (null: no tenant and no
     * cancellation): under its tenant's access policy, stopped by its cancellation. A refused probe counts as "the
     * literal exists" (nothing is changed), so a table the tenant may not use is never read for a replacement.
     */
    @Override
    public Optional<String> apply(String sql, DatabaseSchema schema, StageSql.Scope scope) {
        StageSql.Scope question = scope != null ? scope : new StageSql.Scope(schema.dbId(), null, null);
        return SqlAst.parse(sql).flatMap(select -> {
            ComparedLiterals found = ComparedLiterals.of(select);
            String aligned = sql;
            for (ComparedLiterals.Comparison comparison : found.comparisons()) {
                if (question.cancelled()) {
                    return Optional.empty();
                }
                Optional<ColumnSchema> column = resolve(comparison, found.aliases(), schema);
                if (column.isEmpty() || exists(question, column.get(), comparison.text())) {
                    continue;
                }
                Optional<String> replacement = closestExisting(question, column.get(), comparison.text());
                if (replacement.isPresent()) {
                    aligned = aligned.replace(comparison.token(), ValueText.quoted(replacement.get()));
                }
            }
            return aligned.equals(sql) ? Optional.empty() : Optional.of(aligned);
        });
    }

    private static Optional<ColumnSchema> resolve(ComparedLiterals.Comparison comparison, Map<String, String> aliases,
                                                  DatabaseSchema schema) {
        return SqlAst.resolve(comparison.column(), aliases, schema);
    }

    private boolean exists(StageSql.Scope question, ColumnSchema column, String literal) {
        ExecutionResult result = database.execute(question, "SELECT 1 FROM " + ident(column.table()) + " WHERE "
                + ident(column.name()) + " = " + ValueText.quoted(literal) + " LIMIT 1");
        return !result.ok() || !result.rows().isEmpty();
    }

    private Optional<String> closestExisting(StageSql.Scope question, ColumnSchema column, String literal) {
        List<String> pool = new ArrayList<>();
        for (ValueMatch match : database.door(question).values(literal, 20)) {
            if (match.table().equalsIgnoreCase(column.table()) && match.column().equalsIgnoreCase(column.name())) {
                pool.add(match.value());
            }
        }
        Optional<String> best = closest(literal, pool);
        if (best.isPresent()) {
            return best;
        }
        ExecutionResult distinct = database.execute(question, "SELECT DISTINCT " + ident(column.name()) + " FROM "
                + ident(column.table()) + " WHERE " + ident(column.name()) + " IS NOT NULL LIMIT " + DISTINCT_VALUE_CAP);
        if (!distinct.ok()) {
            return Optional.empty();
        }
        List<String> all = distinct.rows().stream()
                .map(row -> row.get(0)).filter(String.class::isInstance).map(String.class::cast).toList();
        return closest(literal, all);
    }

    /** The most similar value when it is close enough (case and spacing ignored first). */
    private Optional<String> closest(String literal, List<String> pool) {
        String wanted = normalize(literal);
        String best = null;
        double bestScore = 0;
        for (String value : pool) {
            String candidate = normalize(value);
            double score = candidate.equals(wanted) ? 1.0 : SIMILARITY.apply(wanted, candidate);
            if (score > bestScore) {
                bestScore = score;
                best = value;
            }
        }
        return best != null && bestScore >= minSimilarity && !best.equals(literal) ? Optional.of(best) : Optional.empty();
    }

    private static String normalize(String s) {
        return s.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").strip();
    }

    private static String ident(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }
}

package io.flowsql.simulator.oracle;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * Corrupts gold SQL at configured rates and with a seed, so refinement and voting stages meet the
 * kinds of mistakes real models make and a run can be repeated exactly.
 */
public final class SqlErrorInjector {
    private static final List<SqlErrorKind> ORDER = List.of(SqlErrorKind.values());
    private final Map<SqlErrorKind, Double> rates;
    private final Random random;

    public SqlErrorInjector(Map<SqlErrorKind, Double> rates, long seed) {
        this.rates = new EnumMap<>(SqlErrorKind.class);
        this.rates.putAll(rates);
        double total = rates.values().stream().mapToDouble(Double::doubleValue).sum();
        if (total > 1.0 + 1e-9 || rates.values().stream().anyMatch(r -> r < 0)) {
            throw new IllegalArgumentException("error rates must be >= 0 and sum to at most 1, got " + rates);
        }
        this.random = new Random(seed);
    }

    /** An injector that spreads one overall error rate evenly over the four kinds. */
    public static SqlErrorInjector uniform(double errorRate, long seed) {
        Map<SqlErrorKind, Double> rates = new EnumMap<>(SqlErrorKind.class);
        ORDER.forEach(kind -> rates.put(kind, errorRate / ORDER.size()));
        return new SqlErrorInjector(rates, seed);
    }

    public static SqlErrorInjector none() {
        return new SqlErrorInjector(Map.of(), 0);
    }

    /**
     * Draws whether and how to corrupt the query. When the drawn kind does not apply (no WHERE to
     * drop, no aggregate to swap), the next kind in declaration order that applies is used; a syntax
     * error always applies.
     */
    public synchronized InjectedSql inject(String sql, String schemaText) {
        double draw = random.nextDouble();
        double cumulative = 0;
        for (int i = 0; i < ORDER.size(); i++) {
            cumulative += rates.getOrDefault(ORDER.get(i), 0.0);
            if (draw < cumulative) {
                for (int j = i; j < ORDER.size(); j++) {
                    Optional<String> corrupted = SqlCorruptions.apply(ORDER.get(j), sql, schemaText, random);
                    if (corrupted.isPresent() && !corrupted.get().equals(sql)) {
                        return new InjectedSql(corrupted.get(), Optional.of(ORDER.get(j)));
                    }
                }
                break;
            }
        }
        return new InjectedSql(sql, Optional.empty());
    }

    /** Applies one given kind of error, empty when it does not apply to this query. */
    public synchronized Optional<String> corrupt(String sql, SqlErrorKind kind, String schemaText) {
        return SqlCorruptions.apply(kind, sql, schemaText, random);
    }
}

package io.flowsql.benchmarks.eval;

import io.flowsql.agents.sqlfix.RepairRecord;
import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.benchmarks.eval.score.Prediction;
import io.flowsql.benchmarks.eval.score.Scorer;
import io.flowsql.simulator.replay.PredictionFile;
import io.flowsql.sql.compare.ComparisonBudgetExceeded;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * SQLFixAgent's repair memory built beforehand from verified repairs, as the paper builds it from training data: each
 * published prediction (one SQL per Spider dev question) is executed with the gold SQL; where the prediction failed or
 * returned another result than the gold one (and the gold ran), the pair (prediction, gold) is a repair whose fix is known
 * to give the gold result. The seeds hold the gold SQL of the databases they come from, so the refiner never shows a
 * question a seed of its own database ({@code agents.repair-memory-seed-other-databases-only}).
 */
public final class RepairSeeds {
    static final String DIFFERENT_RESULT = "its result differs from the gold SQL's";

    private RepairSeeds() {}

    /** The verified repairs of every prediction file on the benchmark's items whose database passes {@code keep}. */
    public static List<RepairRecord> build(Benchmark bench, Scorer scorer, List<Path> predictionFiles, Predicate<String> keep) {
        List<RepairRecord> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Path file : predictionFiles) {
            List<String> sqls = PredictionFile.read(file).sqls();
            List<Prediction> predictions = new ArrayList<>();
            for (int i = 0; i < sqls.size(); i++) {
                predictions.add(new Prediction(null, i, sqls.get(i), null, List.of()));
            }
            Benchmark kept = new Benchmark(bench.name(), bench.items().stream().filter(i -> keep.test(i.dbId())).toList(),
                    bench.databaseRoot());
            for (ItemOutcome o : scorer.score(kept, predictions, done -> { })) {
                repair(o, file.getFileName().toString()).filter(r -> seen.add(r.dbId() + "\n" + normalized(r.wrongSql())))
                        .ifPresent(out::add);
            }
        }
        return out;
    }

    /** The repair an outcome shows: a wrong prediction whose gold ran; none for a right, missing or undecided one. */
    static java.util.Optional<RepairRecord> repair(ItemOutcome o, String file) {
        boolean undecided = o.predError() != null && o.predError().startsWith(ComparisonBudgetExceeded.VERDICT);
        if (!o.scorable() || o.correct() || undecided || o.predictedSql() == null || o.predictedSql().isBlank()
                || !o.item().owesSql()) {
            return java.util.Optional.empty();
        }
        String why = o.predError() == null ? DIFFERENT_RESULT : "it failed: " + o.predError().strip().replaceAll("\\s+", " ");
        return java.util.Optional.of(new RepairRecord(o.item().dbId(), o.item().question(), o.predictedSql().strip(),
                o.item().goldSql().strip(), why, file + "#" + o.item().ordinal()));
    }

    private static String normalized(String sql) {
        return sql.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }
}

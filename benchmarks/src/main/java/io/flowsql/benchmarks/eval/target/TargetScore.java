package io.flowsql.benchmarks.eval.target;

import io.flowsql.access.DataDoors;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.benchmarks.eval.score.Prediction;
import io.flowsql.benchmarks.eval.score.Scorer;
import io.flowsql.benchmarks.eval.semantics.CrossEngineSemantics;
import io.flowsql.benchmarks.eval.semantics.Semantics;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.exec.SafeExecutor;
import io.flowsql.sql.exec.SqlExecutorConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.IntConsumer;

/**
 * Scoring on a target engine: the predictions run on the target's copies of the databases, the gold where the
 * benchmark defines it (Spider's on SQLite), judged by {@link CrossEngineSemantics}; beside the EX, the dialect gap
 * ({@link GoldOnTarget}): how many golds do not run unchanged on the target, or run with another result.
 */
public record TargetScore(DatabaseEngine engine, List<ItemOutcome> outcomes, GoldOnTarget gold) {

    /**
     * Scores {@code predictions} with {@code semantics} judged across engines; gold on {@code sqlite}, predictions on
     * {@code target} under {@code config} (the same budgets as scoring on SQLite). Closes nothing.
     */
    public static TargetScore score(Benchmark bench, List<Prediction> predictions, Semantics semantics, TargetDatabases target,
                                    SafeExecutor sqlite, SqlExecutorConfig config, int parallel, IntConsumer progress) {
        Semantics across = new CrossEngineSemantics(semantics, target.engine());
        try (SafeExecutor onTarget = target.executor(config)) {
            DataDoors gold = DataDoors.open(sqlite, null);
            DataDoors predicted = DataDoors.open(onTarget, null);
            List<ItemOutcome> outcomes = new Scorer(gold, predicted, across, parallel).score(bench, predictions, progress);
            return new TargetScore(target.engine(), outcomes,
                    GoldOnTarget.check(bench.runnableItems(), gold, predicted, across, parallel));
        }
    }

    /** Questions in EX: gold ran on SQLite and owes SQL. */
    public int scorable() {
        return (int) outcomes.stream().filter(o -> o.scorable() && o.item().owesSql()).count();
    }

    public int correct() {
        return (int) outcomes.stream().filter(o -> o.scorable() && o.correct()).count();
    }

    /** Correct among the questions whose gold gives SQLite's result on the target too. */
    public int correctWhereGoldRuns() {
        Set<String> same = new HashSet<>(gold.same());
        return (int) outcomes.stream().filter(o -> o.correct() && same.contains(o.item().id())).count();
    }

    public double ex() {
        return scorable() == 0 ? 0 : (double) correct() / scorable();
    }

    /** The lines printed after scoring: EX on the engine and the dialect gap beside it. */
    public List<String> lines() {
        String name = engine.displayName();
        int same = gold.same().size();
        return List.of(
                String.format(Locale.ROOT, "EX on %s: %.1f%% (%d/%d; predictions on %s, gold on SQLite)", name, 100 * ex(),
                        correct(), scorable(), name),
                String.format(Locale.ROOT, "dialect gap: the gold of %d of %d questions does not run on %s, and %d more run "
                        + "with another result than on SQLite", gold.fails().size(), gold.checked(), name, gold.differs().size()),
                String.format(Locale.ROOT, "EX on %s over the %d questions whose gold gives SQLite's result there: %.1f%% (%d/%d)",
                        name, same, same == 0 ? 0 : 100.0 * correctWhereGoldRuns() / same, correctWhereGoldRuns(), same));
    }

    /** Writes {@code target-engine.json} into {@code out}; returns the file. */
    public Path write(Path out) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("engine", engine.id());
        json.put("ex", ex());
        json.put("correct", correct());
        json.put("scorable", scorable());
        json.put("gold_checked", gold.checked());
        json.put("gold_same_result", gold.same().size());
        json.put("gold_fails_on_target", gold.fails());
        json.put("gold_differs_on_target", gold.differs());
        json.put("correct_where_gold_runs", correctWhereGoldRuns());
        try {
            Files.createDirectories(out);
            Path file = out.resolve("target-engine.json");
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.flowsql.benchmarks.eval.score;

import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SqlExecutor;
import io.flowsql.sql.compare.ResultComparator;
import io.flowsql.benchmarks.eval.metrics.StageCost;
import io.flowsql.benchmarks.eval.semantics.FlowsqlComparison;
import io.flowsql.benchmarks.eval.semantics.Semantics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * Scores predictions against a benchmark with no LLM: rewrites and runs gold and predicted SQL through the safe
 * executor and judges them by one named {@link Semantics} (the official evaluators' or the project's own comparator),
 * and (optionally) times correct ones for VES. Questions whose database is absent here are left out; a gold that fails
 * is listed apart or counted wrong, as the semantics says.
 */
public final class Scorer {
    private final SqlExecutor executor;
    private final Semantics semantics;
    private final EfficiencyTimer timer;

    /** @param timer null to skip VES timing */
    public Scorer(SqlExecutor executor, Semantics semantics, EfficiencyTimer timer) {
        this.executor = executor;
        this.semantics = semantics;
        this.timer = timer;
    }

    /** The project's own comparison, as before semantics could be chosen. */
    public Scorer(SqlExecutor executor, ResultComparator comparator, EfficiencyTimer timer) {
        this(executor, new FlowsqlComparison(comparator.mode()), timer);
    }

    public List<ItemOutcome> score(Benchmark benchmark, List<Prediction> predictions, IntConsumer progress) {
        Map<String, Prediction> byKey = new HashMap<>();
        Map<Integer, Prediction> byOrdinal = new HashMap<>();
        for (Prediction p : predictions) {
            if (p.key() != null) {
                byKey.put(p.key(), p);
            } else {
                byOrdinal.put(p.ordinal(), p);
            }
        }
        List<ItemOutcome> outcomes = new ArrayList<>();
        int done = 0;
        for (BenchmarkItem item : benchmark.runnableItems()) {
            Prediction p = byKey.containsKey(item.id()) ? byKey.get(item.id()) : byOrdinal.get(item.ordinal());
            outcomes.add(scoreOne(item, p));
            progress.accept(++done);
        }
        return outcomes;
    }

    ItemOutcome scoreOne(BenchmarkItem item, Prediction p) {
        String predSql = p == null ? "" : p.sql();
        String predType = p == null ? null : p.effectiveType();
        List<StageCost> stages = p == null ? List.of() : p.stages();
        double wrongRatio = timer == null ? Double.NaN : 0;
        if (!semantics.executes(item, predType)) {
            String why = item.owesSql() && p != null ? "not executed: predicted type " + predType : null;
            return new ItemOutcome(item, predSql, predType, null, item.owesSql() && p == null ? "no prediction" : why,
                    false, Double.NaN, stages);
        }
        String goldSql = semantics.executedGold(item.goldSql());
        ExecutionResult gold = executor.execute(item.dbId(), goldSql);
        if (!gold.ok() && semantics.goldErrorExcludes()) {
            return new ItemOutcome(item, predSql, predType, gold.error().toString(), null, false, Double.NaN, stages);
        }
        String goldFailed = gold.ok() ? null : "gold query failed (counted wrong by " + semantics.id() + "): " + gold.error();
        if (p == null) {
            return new ItemOutcome(item, "", null, null, "no prediction", false, wrongRatio, stages);
        }
        if (predSql.isEmpty() && !p.readingSqls().isEmpty()) {
            // A clarification offers one SQL per reading; the user then picks the reading they meant, so the turn
            // counts as right when one of its readings returns the gold result (the first one is scored otherwise).
            predSql = p.readingSqls().stream()
                    .filter(sql -> semantics.matches(gold, executor.execute(item.dbId(), semantics.executedPrediction(sql)), goldSql))
                    .findFirst().orElse(p.readingSqls().get(0));
        }
        if (predSql.isEmpty()) {
            return new ItemOutcome(item, "", predType, null, goldFailed != null ? goldFailed : "no SQL", false, wrongRatio, stages);
        }
        String executedPrediction = semantics.executedPrediction(predSql);
        ExecutionResult pred = executor.execute(item.dbId(), executedPrediction);
        boolean correct = semantics.matches(gold, pred, goldSql);
        String error = goldFailed != null ? goldFailed : pred.ok() ? null : pred.error().toString();
        double ratio = timer == null ? Double.NaN
                : correct && gold.ok() ? timer.timeRatio(item.dbId(), goldSql, executedPrediction) : 0;
        return new ItemOutcome(item, predSql, predType, null, error, correct, ratio, stages);
    }
}

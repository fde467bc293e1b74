package io.flowsql.benchmarks.eval.score;

import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SqlExecutor;
import io.flowsql.sql.compare.ResultComparator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * Scores predictions against a benchmark with no LLM: runs gold and predicted SQL through the safe
 * executor, compares with the project's one comparator (the vote uses it too), and (optionally) times correct ones for VES.
 * Questions whose database is absent here are left out; a gold that fails is recorded, not held against the prediction.
 */
public final class Scorer {
    private final SqlExecutor executor;
    private final ResultComparator comparator;
    private final EfficiencyTimer timer;

    /** @param timer null to skip VES timing */
    public Scorer(SqlExecutor executor, ResultComparator comparator, EfficiencyTimer timer) {
        this.executor = executor;
        this.comparator = comparator;
        this.timer = timer;
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
        List<io.flowsql.benchmarks.eval.metrics.StageCost> stages = p == null ? List.of() : p.stages();
        if (!item.owesSql()) {
            return new ItemOutcome(item, predSql, predType, null, null, false, Double.NaN, stages);
        }
        ExecutionResult gold = executor.execute(item.dbId(), item.goldSql());
        if (!gold.ok()) {
            return new ItemOutcome(item, predSql, predType, gold.error().toString(), null, false, Double.NaN, stages);
        }
        if (p == null) {
            return new ItemOutcome(item, "", null, null, "no prediction", false, timer == null ? Double.NaN : 0, stages);
        }
        if (predSql.isEmpty() && !p.readingSqls().isEmpty()) {
            // A clarification offers one SQL per reading; the user then picks the reading they meant, so the turn
            // counts as right when one of its readings returns the gold result (the first one is scored otherwise).
            predSql = p.readingSqls().stream()
                    .filter(sql -> comparator.equal(gold, item.goldSql(), executor.execute(item.dbId(), sql)))
                    .findFirst().orElse(p.readingSqls().get(0));
        }
        if (predSql.isEmpty()) {
            return new ItemOutcome(item, "", predType, null, "no SQL", false, timer == null ? Double.NaN : 0, stages);
        }
        ExecutionResult pred = executor.execute(item.dbId(), predSql);
        if (!pred.ok()) {
            return new ItemOutcome(item, predSql, predType, null, pred.error().toString(), false,
                    timer == null ? Double.NaN : 0, stages);
        }
        boolean correct = comparator.equal(gold, item.goldSql(), pred);
        double ratio = timer == null ? Double.NaN : correct ? timer.timeRatio(item.dbId(), item.goldSql(), predSql) : 0;
        return new ItemOutcome(item, predSql, predType, null, null, correct, ratio, stages);
    }
}

package io.flowsql.benchmarks.eval.score;

import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.benchmarks.eval.metrics.StageCost;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SqlExecutor;
import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.compare.Match;
import io.flowsql.sql.compare.ResultComparator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;

/**
 * Scores predictions against a benchmark with no LLM: runs gold and predicted SQL through the safe
 * executor, compares with the project's one comparator (the vote uses it too), and (optionally) times correct ones for VES.
 * Questions whose database is absent here are left out; a gold that fails is recorded, not held against the prediction.
 * Every statement has one budget (the executor's time limit) for its parse, execution, encoding and comparison, and
 * questions are scored on a bounded pool (results kept in benchmark order), so one runaway holds one thread for one
 * budget; anything a question cannot survive (an unreadable line, a refusal, a budget, even running out of memory)
 * scores it wrong with the reason.
 */
public final class Scorer {
    private final SqlExecutor executor;
    private final ResultComparator comparator;
    private final EfficiencyTimer timer;
    private final int parallelism;

    /** @param timer null to skip VES timing */
    public Scorer(SqlExecutor executor, ResultComparator comparator, EfficiencyTimer timer) {
        this(executor, comparator, timer, 1);
    }

    /**
     * @param timer       null to skip VES timing
     * @param parallelism questions scored at once (the executor needs as many connections per database)
     */
    public Scorer(SqlExecutor executor, ResultComparator comparator, EfficiencyTimer timer, int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1");
        }
        this.executor = executor;
        this.comparator = comparator;
        this.timer = timer;
        this.parallelism = parallelism;
    }

    public List<ItemOutcome> score(Benchmark benchmark, List<Prediction> predictions, IntConsumer progress) {
        Map<String, Prediction> byKey = new HashMap<>();
        Map<Integer, Prediction> byOrdinal = new HashMap<>();
        for (Prediction p : predictions) {
            if (p.key() != null) {
                byKey.put(p.key(), p);
            } else if (p.ordinal() >= 0) {
                byOrdinal.put(p.ordinal(), p);
            }
        }
        List<BenchmarkItem> items = benchmark.runnableItems();
        ExecutorService pool = Executors.newFixedThreadPool(parallelism, r -> {
            Thread t = new Thread(r, "flowsql-scorer");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<ItemOutcome>> futures = new ArrayList<>(items.size());
            for (BenchmarkItem item : items) {
                Prediction p = byKey.containsKey(item.id()) ? byKey.get(item.id()) : byOrdinal.get(item.ordinal());
                futures.add(pool.submit(() -> scoreSafely(item, p)));
            }
            List<ItemOutcome> outcomes = new ArrayList<>(items.size());
            for (int i = 0; i < futures.size(); i++) {
                outcomes.add(outcomeOf(futures.get(i), items.get(i), byKey, byOrdinal));
                progress.accept(i + 1);
            }
            return outcomes;
        } finally {
            pool.shutdownNow();
        }
    }

    private ItemOutcome outcomeOf(Future<ItemOutcome> future, BenchmarkItem item, Map<String, Prediction> byKey,
                                  Map<Integer, Prediction> byOrdinal) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("scoring interrupted", e);
        } catch (ExecutionException e) {
            Prediction p = byKey.containsKey(item.id()) ? byKey.get(item.id()) : byOrdinal.get(item.ordinal());
            return wrong(item, p, "scoring failed: " + e.getCause());
        }
    }

    /** Never throws: whatever stops one question (even OutOfMemoryError on a huge value) scores it wrong with why. */
    ItemOutcome scoreSafely(BenchmarkItem item, Prediction p) {
        try {
            return scoreOne(item, p);
        } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
            return wrong(item, p, "scoring failed: " + e);
        }
    }

    private ItemOutcome wrong(BenchmarkItem item, Prediction p, String reason) {
        String predSql = p == null ? "" : p.sql();
        return new ItemOutcome(item, predSql, p == null ? null : p.effectiveType(), null, reason, false,
                timer == null ? Double.NaN : 0, p == null ? List.of() : p.stages());
    }

    ItemOutcome scoreOne(BenchmarkItem item, Prediction p) {
        String predSql = p == null ? "" : p.sql();
        String predType = p == null ? null : p.effectiveType();
        List<StageCost> stages = p == null ? List.of() : p.stages();
        if (!item.owesSql()) {
            return new ItemOutcome(item, predSql, predType, null, null, false, Double.NaN, stages);
        }
        ExecutionResult gold = executor.execute(item.dbId(), item.goldSql());
        if (!gold.ok()) {
            return new ItemOutcome(item, predSql, predType, gold.error().toString(), null, false, Double.NaN, stages);
        }
        if (p == null) {
            return wrong(item, null, "no prediction");
        }
        if (p.unreadable() != null) {
            return wrong(item, p, "unreadable prediction: " + p.unreadable());
        }
        if (predSql.isEmpty() && !p.readingSqls().isEmpty()) {
            // A clarification offers one SQL per reading; the user then picks the reading they meant, so the turn
            // counts as right when one of its readings returns the gold result (the first one is scored otherwise).
            predSql = p.readingSqls().stream()
                    .filter(sql -> run(item, gold, sql).match().equal())
                    .findFirst().orElse(p.readingSqls().get(0));
        }
        if (predSql.isEmpty()) {
            return new ItemOutcome(item, "", predType, null, "no SQL", false, timer == null ? Double.NaN : 0, stages);
        }
        Run run = run(item, gold, predSql);
        if (!run.result().ok()) {
            return new ItemOutcome(item, predSql, predType, null, run.result().error().toString(), false,
                    timer == null ? Double.NaN : 0, stages);
        }
        if (!run.match().decided()) {
            return new ItemOutcome(item, predSql, predType, null, run.match().undecided(), false,
                    timer == null ? Double.NaN : 0, stages);
        }
        boolean correct = run.match().equal();
        double ratio = timer == null ? Double.NaN : correct ? timer.timeRatio(item.dbId(), item.goldSql(), predSql) : 0;
        return new ItemOutcome(item, predSql, predType, null, null, correct, ratio, stages);
    }

    /** One predicted statement: run and compared within one budget. */
    private record Run(ExecutionResult result, Match match) {}

    private Run run(BenchmarkItem item, ExecutionResult gold, String predSql) {
        StatementBudget budget = executor.newBudget();
        ExecutionResult pred = executor.execute(item.dbId(), predSql, budget);
        if (!pred.ok()) {
            return new Run(pred, Match.DIFFERENT);
        }
        return new Run(pred, comparator.compare(gold, item.goldSql(), pred, budget));
    }
}

package io.flowsql.benchmarks.eval.score;

import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.access.DataDoor;
import io.flowsql.access.DataDoors;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.compare.Match;
import io.flowsql.sql.compare.ResultComparator;
import io.flowsql.benchmarks.eval.metrics.StageCost;
import io.flowsql.benchmarks.eval.semantics.FlowsqlComparison;
import io.flowsql.benchmarks.eval.semantics.Semantics;

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
 * Scores predictions against a benchmark with no LLM: rewrites and runs gold and predicted SQL through the safe
 * executor, through the operator's door of each database ({@link DataDoors#operator}: an evaluation serves no tenant),
 * and judges them by one named {@link Semantics} (the official evaluators' or the project's own comparator),
 * and (optionally) times correct ones for VES. Questions whose database is absent here are left out; a gold that fails
 * is listed apart or counted wrong, as the semantics says. Every statement has one budget (the executor's time limit)
 * for its parse, execution, encoding and comparison, and questions are scored on a bounded pool (results kept in
 * benchmark order), so one runaway holds one thread for one budget; anything a question cannot survive (an unreadable
 * line, a refusal, a budget, even running out of memory) scores it wrong with the reason.
 * <p>The gold may run on another executor than the predictions ({@link #Scorer(DataDoors, DataDoors, Semantics,
 * int)}): Spider's gold on SQLite, the predictions on the PostgreSQL or DuckDB copy of the same database.</p>
 */
public final class Scorer {
    private final DataDoors goldDoors;
    private final DataDoors doors;
    private final Semantics semantics;
    private final EfficiencyTimer timer;
    private final int parallelism;

    /** @param timer null to skip VES timing */
    public Scorer(DataDoors doors, Semantics semantics, EfficiencyTimer timer) {
        this(doors, semantics, timer, 1);
    }

    /**
     * @param timer       null to skip VES timing
     * @param parallelism questions scored at once (the executor needs as many connections per database)
     */
    public Scorer(DataDoors doors, Semantics semantics, EfficiencyTimer timer, int parallelism) {
        this(doors, doors, semantics, timer, parallelism);
    }

    /**
     * Gold SQL through {@code goldDoors}, predicted SQL through {@code predictionDoors} (each statement within its own
     * executor's budget); no VES timing.
     */
    public Scorer(DataDoors goldDoors, DataDoors predictionDoors, Semantics semantics, int parallelism) {
        this(goldDoors, predictionDoors, semantics, null, parallelism);
    }

    private Scorer(DataDoors goldDoors, DataDoors predictionDoors, Semantics semantics, EfficiencyTimer timer,
                   int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1");
        }
        this.goldDoors = goldDoors;
        this.doors = predictionDoors;
        this.semantics = semantics;
        this.timer = timer;
        this.parallelism = parallelism;
    }

    /** The project's own comparison, as before semantics could be chosen. */
    public Scorer(DataDoors doors, ResultComparator comparator, EfficiencyTimer timer) {
        this(doors, new FlowsqlComparison(comparator.mode()), timer);
    }

    /** The project's own comparison on a pool of {@code parallelism} threads. */
    public Scorer(DataDoors doors, ResultComparator comparator, EfficiencyTimer timer, int parallelism) {
        this(doors, new FlowsqlComparison(comparator.mode()), timer, parallelism);
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
            List<Prediction> matched = new ArrayList<>(items.size());
            for (BenchmarkItem item : items) {
                Prediction p = byKey.containsKey(item.id()) ? byKey.get(item.id()) : byOrdinal.get(item.ordinal());
                matched.add(p);
                futures.add(pool.submit(() -> scoreSafely(item, p)));
            }
            List<ItemOutcome> outcomes = new ArrayList<>(items.size());
            for (int i = 0; i < futures.size(); i++) {
                outcomes.add(outcomeOf(futures.get(i), items.get(i), matched.get(i)));
                progress.accept(i + 1);
            }
            return outcomes;
        } finally {
            pool.shutdownNow();
        }
    }

    private ItemOutcome outcomeOf(Future<ItemOutcome> future, BenchmarkItem item, Prediction p) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("scoring interrupted", e);
        } catch (ExecutionException e) {
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
        return new ItemOutcome(item, p == null ? "" : p.sql(), p == null ? null : p.effectiveType(), null, reason, false,
                timer == null ? Double.NaN : 0, p == null ? List.of() : p.stages());
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
        ExecutionResult gold = goldDoors.operator(item.dbId()).execute(goldSql);
        if (!gold.ok() && semantics.goldErrorExcludes()) {
            return new ItemOutcome(item, predSql, predType, gold.error().toString(), null, false, Double.NaN, stages);
        }
        String goldFailed = gold.ok() ? null : "gold query failed (counted wrong by " + semantics.id() + "): " + gold.error();
        if (p == null) {
            return new ItemOutcome(item, "", null, null, "no prediction", false, wrongRatio, stages);
        }
        if (p.unreadable() != null) {
            return wrong(item, p, "unreadable prediction: " + p.unreadable());
        }
        if (predSql.isEmpty() && !p.readingSqls().isEmpty()) {
            // A clarification offers one SQL per reading; the user then picks the reading they meant, so the turn
            // counts as right when one of its readings returns the gold result (the first one is scored otherwise).
            predSql = p.readingSqls().stream()
                    .filter(sql -> run(item, gold, goldSql, semantics.executedPrediction(sql)).match().equal())
                    .findFirst().orElse(p.readingSqls().get(0));
        }
        if (predSql.isEmpty()) {
            return new ItemOutcome(item, "", predType, null, goldFailed != null ? goldFailed : "no SQL", false, wrongRatio, stages);
        }
        String executedPrediction = semantics.executedPrediction(predSql);
        Run run = run(item, gold, goldSql, executedPrediction);
        ExecutionResult pred = run.result();
        boolean correct = run.match().equal();
        String error = goldFailed != null ? goldFailed : !pred.ok() ? pred.error().toString() : run.match().undecided();
        double ratio = timer == null ? Double.NaN
                : correct && gold.ok() ? timer.timeRatio(item.dbId(), goldSql, executedPrediction) : 0;
        return new ItemOutcome(item, predSql, predType, null, error, correct, ratio, stages);
    }

    /** One predicted statement: run and judged within one budget. */
    private record Run(ExecutionResult result, Match match) {}

    private Run run(BenchmarkItem item, ExecutionResult gold, String goldSql, String executedPrediction) {
        DataDoor door = doors.operator(item.dbId());
        StatementBudget budget = door.newBudget();
        ExecutionResult pred = door.execute(executedPrediction, budget);
        return new Run(pred, semantics.match(gold, pred, goldSql, budget));
    }
}

package io.flowsql.benchmarks.eval.semantics;

import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.compare.Match;
import io.flowsql.sql.compare.NullPlacement;

/**
 * A semantics judged across engines: the gold ran on SQLite (where the benchmark defines it), the prediction on
 * PostgreSQL or DuckDB. The values are already alike (the executor reads every engine's numbers, booleans and
 * timestamps as SQLite returns them); the one difference left is where a sorted result puts its NULL rows
 * ({@link NullPlacement}), so a prediction that does not match as returned is judged again with its NULL rows first,
 * then last, within the same budget. Rewrites, what runs and what a failing gold means stay the inner semantics'.
 */
public final class CrossEngineSemantics implements Semantics {

    private final Semantics inner;
    private final DatabaseEngine target;

    public CrossEngineSemantics(Semantics inner, DatabaseEngine target) {
        this.inner = inner;
        this.target = target;
    }

    @Override
    public String id() {
        return inner.id();
    }

    @Override
    public String description() {
        return inner.description() + "; predictions run on " + target.displayName() + ", gold on SQLite, a sorted "
                + "result's NULL rows may sit at either end";
    }

    @Override
    public String executedGold(String gold) {
        return inner.executedGold(gold);
    }

    @Override
    public String executedPrediction(String prediction) {
        return inner.executedPrediction(prediction);
    }

    @Override
    public boolean executes(BenchmarkItem item, String predictedType) {
        return inner.executes(item, predictedType);
    }

    @Override
    public boolean goldErrorExcludes() {
        return inner.goldErrorExcludes();
    }

    @Override
    public boolean matches(ExecutionResult gold, ExecutionResult predicted, String executedGold) {
        return inner.matches(gold, predicted, executedGold)
                || predicted != null && predicted.ok()
                && (inner.matches(gold, NullPlacement.moved(predicted, true), executedGold)
                || inner.matches(gold, NullPlacement.moved(predicted, false), executedGold));
    }

    @Override
    public Match match(ExecutionResult gold, ExecutionResult predicted, String executedGold, StatementBudget budget) {
        Match asReturned = inner.match(gold, predicted, executedGold, budget);
        if (asReturned.equal() || asReturned.undecided() != null || predicted == null || !predicted.ok()) {
            return asReturned;
        }
        for (boolean nullsFirst : new boolean[] {true, false}) {
            ExecutionResult moved = NullPlacement.moved(predicted, nullsFirst);
            if (moved == predicted) {
                return asReturned;
            }
            Match m = inner.match(gold, moved, executedGold, budget);
            if (m.equal() || m.undecided() != null) {
                return m;
            }
        }
        return asReturned;
    }
}

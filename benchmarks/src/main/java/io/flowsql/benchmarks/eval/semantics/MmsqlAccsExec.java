package io.flowsql.benchmarks.eval.semantics;

import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.sql.ExecutionResult;

/**
 * MMSQL's evaluation script (mcxiaoxiao/MMSQL, the TDEX/EX/IEX script): only turns whose gold type and predicted type
 * are both {@code answerable} are executed; both queries lose {@code ```} fences and {@code ;}, backticks and double
 * quotes become single quotes, the first {@code =} gets a space on each side (which turns a leading {@code >=} into the
 * invalid {@code > =}); the results match as lists when the gold contains {@code ORDER BY} in capitals, else as sets of
 * rows; columns are never permuted. A failing gold makes the turn wrong, except that when both fail and the gold has
 * {@code ORDER BY} the script compares {@code None == None} and counts it right — kept, as it changes published figures.
 */
public final class MmsqlAccsExec implements Semantics {
    /** The script's semantics; an MMSQL output file under it is replayed by {@code mmsql.AccsReplay}, answers files come here. */
    public static final String ID = "mmsql-accs";
    /**
     * The project's reading of MMSQL on the test suite's own turns (docs/EVALUATION.md says why it is kept): gold from
     * {@code MMSQL_test.json}, not from the scored file; turns whose database is absent left out; SQL from
     * {@code predict_sql}, else the SQL inside {@code predict}.
     */
    public static final String OWN_ID = "flowsql-mmsql";
    public static final String ANSWERABLE = "answerable";

    private final String id;

    public MmsqlAccsExec() {
        this(ID);
    }

    public MmsqlAccsExec(String id) {
        this.id = id;
    }

    /** Whether a semantics id is one of MMSQL's two readings. */
    public static boolean isMmsql(String id) {
        return ID.equals(id) || OWN_ID.equals(id);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String description() {
        if (OWN_ID.equals(id)) {
            return "the project's reading of MMSQL: the test suite's turns and gold (MMSQL_test.json), turns without their "
                    + "database left out, predict_sql else the SQL inside predict, the script's rewrites and comparison, "
                    + "IEX per dialogue";
        }
        return "MMSQL's evaluation script (mcxiaoxiao/MMSQL accs_eval/TDEX_eval: answerable turns only, quote and ';' rewrites, "
                + "ORDER BY (capitals) -> list equality else set equality, no column permutation)";
    }

    @Override
    public String executedGold(String gold) {
        return MmsqlRewrites.forExecution(gold);
    }

    @Override
    public String executedPrediction(String prediction) {
        return MmsqlRewrites.forExecution(prediction);
    }

    @Override
    public boolean executes(BenchmarkItem item, String predictedType) {
        return ANSWERABLE.equals(goldType(item)) && ANSWERABLE.equals(predictedType == null || predictedType.isEmpty()
                ? ANSWERABLE : predictedType);
    }

    /** The script's gold type: the turn's type, {@code answerable} when empty. */
    public static String goldType(BenchmarkItem item) {
        String t = item.questionType();
        return t == null || t.isEmpty() || t.equals("unknown") ? ANSWERABLE : t;
    }

    @Override
    public boolean goldErrorExcludes() {
        return false;
    }

    @Override
    public boolean matches(ExecutionResult gold, ExecutionResult predicted, String executedGold) {
        if (executedGold.contains("ORDER BY")) {
            if (!gold.ok() || !predicted.ok()) {
                return !gold.ok() && !predicted.ok();
            }
            return PythonValues.sameList(gold.rows(), predicted.rows());
        }
        return gold.ok() && predicted.ok() && PythonValues.sameSet(gold.rows(), predicted.rows());
    }
}

package io.flowsql.benchmarks.eval.mmsql;

import io.flowsql.benchmarks.eval.semantics.PythonValues;

import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code eval_exec_match} of {@code accs_eval.py} (paper branch): the text rewrites, the two executions (gold first) and
 * the comparison, with what each step does when a statement fails.
 * <ol>
 *   <li>both queries: {@code ```} and {@code ;} removed, backticks and double quotes to single quotes (the script's
 *       {@code replace(" ", " ")} replaces a plain space by a plain space: nothing), then one space each side of the
 *       <b>first</b> {@code =} (a leading {@code >=} becomes {@code > =}, a syntax error);</li>
 *   <li>each run that fails (SQLite error, missing database) returns {@code None} and adds one to {@code error_count}
 *       (gold and prediction alike); an empty or comment-only query returns no rows, as Python's {@code sqlite3} does;</li>
 *   <li>gold containing {@code ORDER BY} (capitals): {@code g_r == p_r}, so two failures are a match
 *       ({@code None == None}); otherwise {@code set(g_r) == set(p_r)}, and a failure on either side raises
 *       {@code TypeError}: an exception, which the caller counts neither right nor as breaking the dialogue.</li>
 * </ol>
 */
final class AccsExecMatch {
    private static final Pattern COMMENTS = Pattern.compile("--[^\n]*|/\\*.*?(\\*/|$)", Pattern.DOTALL);

    /** One execution as Python's sqlite3 returns it: rows, or null with the error. */
    record Rows(List<List<Object>> rows, String error) {}

    /** Runs one statement on a database; never throws. */
    interface Runner {
        Rows run(String db, String sql);
    }

    enum Verdict { MATCH, NO_MATCH, EXCEPTION }

    /** The outcome of one call, with the statements that failed (each one {@code error_count += 1}). */
    record Outcome(Verdict verdict, int failedStatements, String executedGold, String executedPrediction, String goldError,
                   String predError) {}

    private AccsExecMatch() {}

    /** The script's rewrite of one query before execution. */
    static String rewrite(String sql) {
        String s = sql.replace("```", "").replace(";", "").replace("`", "'").replace("\"", "'");
        int eq = s.indexOf('=');
        return eq < 0 ? s : s.substring(0, eq) + " = " + s.substring(eq + 1);
    }

    static Outcome evaluate(Runner runner, String db, String prediction, String gold) {
        String p = rewrite(prediction);
        String g = rewrite(gold);
        Rows gr = execute(runner, db, g);
        Rows pr = execute(runner, db, p);
        int failed = (gr.rows() == null ? 1 : 0) + (pr.rows() == null ? 1 : 0);
        Verdict v;
        if (g.contains("ORDER BY")) {
            v = gr.rows() == null || pr.rows() == null
                    ? (gr.rows() == null && pr.rows() == null ? Verdict.MATCH : Verdict.NO_MATCH)
                    : PythonValues.sameList(gr.rows(), pr.rows()) ? Verdict.MATCH : Verdict.NO_MATCH;
        } else if (gr.rows() == null || pr.rows() == null) {
            v = Verdict.EXCEPTION;
        } else {
            v = PythonValues.sameSet(gr.rows(), pr.rows()) ? Verdict.MATCH : Verdict.NO_MATCH;
        }
        return new Outcome(v, failed, g, p, gr.error(), pr.error());
    }

    private static Rows execute(Runner runner, String db, String sql) {
        if (COMMENTS.matcher(sql).replaceAll("").isBlank()) {
            return new Rows(List.of(), null);
        }
        return runner.run(db, sql);
    }
}

package io.flowsql.benchmarks.eval.report;

import io.flowsql.benchmarks.eval.metrics.ItemOutcome;

/**
 * One question's verdict as the reports list it (and {@code diff} compares): {@code correct}, {@code wrong} (ran, other
 * result), {@code error} (the prediction failed to run, or the gold failed and the semantics counts that wrong),
 * {@code missing} (no prediction), {@code gold-error} (gold failed: left out), {@code not-executed} (MMSQL: a turn
 * not answerable in both gold and prediction), {@code no-sql-owed} (a turn that owes no SQL).
 */
public record QuestionVerdict(String id, String dbId, String difficulty, String type, String predictedType,
                              String verdict, String gold, String prediction, String error) {

    public static QuestionVerdict of(ItemOutcome o) {
        return new QuestionVerdict(o.item().id(), o.item().dbId(), o.item().difficulty(), o.item().questionType(),
                o.predictedType(), verdictOf(o), o.item().goldSql(), o.predictedSql(),
                o.goldError() != null ? o.goldError() : o.predError());
    }

    static String verdictOf(ItemOutcome o) {
        if (o.goldError() != null) {
            return "gold-error";
        }
        if (o.correct()) {
            return "correct";
        }
        String e = o.predError();
        if (e == null) {
            return o.item().owesSql() ? "wrong" : "no-sql-owed";
        }
        if (e.equals("no prediction")) {
            return "missing";
        }
        if (e.startsWith("not executed")) {
            return "not-executed";
        }
        return "error";
    }
}

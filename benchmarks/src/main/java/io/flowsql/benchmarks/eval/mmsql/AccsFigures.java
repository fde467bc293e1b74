package io.flowsql.benchmarks.eval.mmsql;

import java.util.List;
import java.util.Map;

/**
 * The counters {@code accs_eval.py} prints, under its names (the paper's names in brackets): DUEM [TDEX], IDUEM [IEX],
 * EM [EX], ERROR, the type table and the RQS averages read from the file. The script divides EM and ERROR by
 * {@code allsqla} (answerable in gold and prediction) but prints {@code allsqlqa} (answerable in gold) beside them, and
 * divides IDUEM by all user turns, not dialogues; both denominators are kept here.
 */
public record AccsFigures(int duem, int iduem, int em, int errors, int allQa, int allSqlQa, int allSqlA, int dialogues,
                          Map<String, int[]> typeCounts, Map<String, Integer> rqsSums, Map<String, Integer> rqsCounts,
                          int ambClarifyAnswer, int ambAnswerCount, int rewrittenAns, int rewrittenAnsCorrect, int rewrittenAmb,
                          Qm qm, List<AccsTurn> turns) {

    /**
     * The QM side: QM right, ACCS (QM right or a non-answerable type right), dialogues with IACCS and IM, Amb.Q+ans
     * matches, Amb.Q+Amb rewritten matches, and per turn number {QM right, gold-answerable turns}.
     */
    public record Qm(int qm, int accs, int iaccs, int im, int ambAnswerMatched, int rewrittenAmbCorrect,
                     Map<Integer, int[]> byTurn) {}

    public static final List<String> TYPES = List.of("answerable", "unanswerable", "ambiguous", "improper");
    public static final List<String> RQS_TYPES = List.of("unanswerable", "ambiguous", "improper");

    static double pct(int n, int d) {
        return d == 0 ? 0 : 100.0 * n / d;
    }

    public double duemPercent() {
        return pct(duem, allQa);
    }

    /** IDUEM as the script prints it: dialogues over user turns. */
    public double iduemPercent() {
        return pct(iduem, allQa);
    }

    /** IDUEM over dialogues (the definition the paper states). */
    public double iduemPerDialoguePercent() {
        return pct(iduem, dialogues);
    }

    public double emPercent() {
        return pct(em, allSqlA);
    }

    public double qmPercent() {
        return pct(qm.qm(), allSqlA);
    }

    public double accsPercent() {
        return pct(qm.accs(), allQa);
    }

    public double errorPercent() {
        return pct(errors, allSqlA);
    }

    /** Precision, recall, F1 of one type, as the script's calculate_metrics and calculate_f1 (0 when undefined). */
    public double[] prf(String type) {
        int[] c = typeCounts.getOrDefault(type, new int[3]);
        double precision = c[1] > 0 ? (double) c[2] / c[1] : 0;
        double recall = c[0] > 0 ? (double) c[2] / c[0] : 0;
        double f1 = precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall);
        return new double[] {precision, recall, f1};
    }

    public double averageF1() {
        return TYPES.stream().mapToDouble(t -> prf(t)[2]).sum() / TYPES.size();
    }

    /** The file's RQS average of one type, or NaN when no turn of it was counted ("N/A"). */
    public double rqsAverage(String type) {
        int n = rqsCounts.getOrDefault(type, 0);
        return n == 0 ? Double.NaN : (double) rqsSums.getOrDefault(type, 0) / n;
    }

    /** The script's overall RQS: the sum of the three type averages (0 for a type with none) over 3. */
    public double rqsOverall() {
        return RQS_TYPES.stream().mapToDouble(t -> Double.isNaN(rqsAverage(t)) ? 0 : rqsAverage(t)).sum() / 3;
    }
}

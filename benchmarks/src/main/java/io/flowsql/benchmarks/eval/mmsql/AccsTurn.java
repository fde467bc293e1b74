package io.flowsql.benchmarks.eval.mmsql;

/**
 * One turn the script treats as a user turn ({@code isuser} true in Python's sense), with each metric's credit.
 *
 * @param dialogue      the dialogue's position in the file (0-based)
 * @param turnIndex     the turn's position in its dialogue's {@code turns} (0-based)
 * @param turn          the script's turn number ({@code turnIndex // 2 + 1})
 * @param em            {@code match}, {@code no-match}, {@code exception} (the script's try/except caught it: no credit,
 *                      dialogue not broken) or {@code not-executed} (not answerable in both)
 * @param tdex          DUEM (TDEX) credit
 * @param ex            EM (EX) credit, also by a rewritten output
 * @param breaksIex     this turn made the dialogue fail IDUEM (IEX)
 * @param qm            QM (the exact-set match): {@code match}, {@code no-match}, {@code exception: ...}, {@code not-executed}
 * @param accs          ACCS credit (QM right, or a non-answerable type detected right)
 * @param failedStatements statements of this turn that failed ({@code error_count} adds them)
 * @param fileRqs       the file's RQS counted for this turn's reply in the script's averages, or null when not counted
 */
public record AccsTurn(int dialogue, int turnIndex, int turn, String db, String goldType, String predictedType, String em,
                       boolean tdex, boolean ex, boolean breaksIex, String qm, boolean accs, int failedStatements, String gold, String prediction,
                       String error, Integer fileRqs) {}

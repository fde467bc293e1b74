package io.flowsql.benchmarks.eval.mmsql;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.TreeMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;

/**
 * Replays the main loop of {@code accs_eval.py} (mcxiaoxiao/MMSQL, branch {@code paper}, 2d959c9) over an output file,
 * step for step, for every figure that comes from execution or types: DUEM (TDEX), IDUEM (IEX), EM (EX), ERROR, the
 * type table, the file's own RQS averages, QM (Spider's exact-set match through {@code process_sql}, {@link AccsQm}) and
 * what is built on it (ACCS, IACCS, IM, turn-wise QM, Amb.Q+ans, Amb.Q+Amb).
 * <ul>
 *   <li>every index {@code i} but the last of a dialogue's {@code turns} is visited; a turn whose {@code isuser} is true
 *       <em>in Python's sense</em> is a user turn (the string {@code "False"} is true), answered by turn {@code i+1};</li>
 *   <li>gold type = {@code type} of turn i, predicted type = {@code predict_type} of turn i+1 (absent:
 *       {@code answerable}; empty: {@code answerable});</li>
 *   <li>prediction = {@code predict_sql} of turn i+1 (absent: empty), gold = {@code query} of turn i+1; nothing else
 *       (not {@code predict}, no fence) is read;</li>
 *   <li>answerable in both: EM by {@link AccsExecMatch}; right: DUEM and EM +1; wrong: IDUEM broken; exception: nothing;
 *       same non-answerable type: DUEM +1; gold answerable predicted ambiguous: each {@code rewritten_outputs} entry
 *       (characters, when it is a string) is executed until one matches (EM and DUEM +1) else IDUEM broken; gold
 *       answerable predicted unanswerable: IDUEM broken;</li>
 *   <li>RQS: at every index i, when turn i-1 (turn -1 is the last) has a type other than {@code answerable}, the RQS
 *       of turn i counts when its {@code predict_type} equals that type, else 0; averaged per type over the three
 *       non-answerable types. A value {@code int()} cannot read stops the script: the file is refused naming the turn.</li>
 * </ul>
 * Databases: a missing database fails every statement (counted in ERROR; with {@code ORDER BY} in the gold, two failures
 * match), as in the script. The script has no time limit (its 10 s limit is in code it commented out); here a statement
 * over the executor's budget fails like an SQLite error.
 */
public final class AccsReplay {
    private static final String ANSWERABLE = "answerable";
    private static final Pattern PY_INT = Pattern.compile("[+-]?\\d+(_\\d+)*");

    private final AccsExecMatch.Runner runner;
    private final AccsQm qm;
    private final int parallel;

    /**
     * @param databaseRoot the folder of {@code <db>/<db>.sqlite}, for the schemas QM parses with
     * @param parallel     dialogues replayed at once (their counts are added in file order, so the figures do not change)
     */
    public AccsReplay(AccsExecMatch.Runner runner, Path databaseRoot, int parallel) {
        this.runner = runner;
        this.qm = new AccsQm(databaseRoot);
        this.parallel = parallel;
    }

    public AccsFigures replay(AccsOutputFile file) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, parallel), r -> {
            Thread th = new Thread(r, "flowsql-accs-replay");
            th.setDaemon(true);
            return th;
        });
        Tally t = new Tally();
        try {
            List<Future<Tally>> parts = new ArrayList<>();
            for (AccsOutputFile.Dialogue d : file.dialogues()) {
                parts.add(pool.submit(() -> {
                    Tally own = new Tally();
                    dialogue(file, d, own);
                    return own;
                }));
            }
            for (Future<Tally> part : parts) {
                t.add(part.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("replay interrupted", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
        return new AccsFigures(t.duem, t.iduem, t.em, t.errors, t.allQa, t.allSqlQa, t.allSqlA, file.dialogues().size(),
                t.types, t.rqsSums, t.rqsCounts, t.ambClaA, t.ambA, t.rewrittenAns, t.rewrittenAnsCorrect, t.rewrittenAmb,
                new AccsFigures.Qm(t.qm, t.accs, t.iaccs, t.im, t.ambAMatched, t.rewrittenAmbCorrect, t.turnQm),
                List.copyOf(t.turns));
    }

    private static final class Tally {
        int duem, iduem, em, errors, allQa, allSqlQa, allSqlA, ambClaA, ambA, rewrittenAns, rewrittenAnsCorrect, rewrittenAmb;
        int qm, accs, iaccs, im, ambAMatched, rewrittenAmbCorrect;
        /** turn number to {QM count, answerable turns} (the script's turn_qm_counts and turn_total_counts). */
        final Map<Integer, int[]> turnQm = new TreeMap<>();
        final Map<String, int[]> types = new LinkedHashMap<>();
        final Map<String, Integer> rqsSums = new LinkedHashMap<>();
        final Map<String, Integer> rqsCounts = new LinkedHashMap<>();
        final List<AccsTurn> turns = new ArrayList<>();

        Tally() {
            AccsFigures.TYPES.forEach(x -> types.put(x, new int[3]));
        }

        void add(Tally o) {
            duem += o.duem;
            iduem += o.iduem;
            em += o.em;
            errors += o.errors;
            allQa += o.allQa;
            allSqlQa += o.allSqlQa;
            allSqlA += o.allSqlA;
            ambClaA += o.ambClaA;
            ambA += o.ambA;
            rewrittenAns += o.rewrittenAns;
            rewrittenAnsCorrect += o.rewrittenAnsCorrect;
            rewrittenAmb += o.rewrittenAmb;
            qm += o.qm;
            accs += o.accs;
            iaccs += o.iaccs;
            im += o.im;
            ambAMatched += o.ambAMatched;
            rewrittenAmbCorrect += o.rewrittenAmbCorrect;
            o.turnQm.forEach((k, c) -> {
                int[] mine = turnQm.computeIfAbsent(k, x -> new int[2]);
                mine[0] += c[0];
                mine[1] += c[1];
            });
            o.types.forEach((k, c) -> {
                int[] mine = types.computeIfAbsent(k, x -> new int[3]);
                for (int i = 0; i < 3; i++) {
                    mine[i] += c[i];
                }
            });
            o.rqsSums.forEach((k, v) -> rqsSums.merge(k, v, Integer::sum));
            o.rqsCounts.forEach((k, v) -> rqsCounts.merge(k, v, Integer::sum));
            turns.addAll(o.turns);
        }
    }

    private void dialogue(AccsOutputFile file, AccsOutputFile.Dialogue d, Tally t) {
        List<JsonNode> turns = d.turns();
        boolean iduem = true;
        boolean iaccs = true;
        boolean imatch = true;
        Map<Integer, Integer> rqsOfUserTurn = new LinkedHashMap<>();
        List<Integer> userTurns = new ArrayList<>();
        List<AccsTurn> mine = new ArrayList<>();
        for (int i = 0; i < turns.size() - 1; i++) {
            if ("answerable".equals(PyJson.text(turns.get(i), "type", ""))) {
                t.turnQm.computeIfAbsent(i / 2 + 1, k -> new int[2])[1]++;
            }
            rqs(file, d, i, t, rqsOfUserTurn);
            JsonNode user = turns.get(i);
            if (!PyJson.truthy(user.get("isuser"))) {
                continue;
            }
            JsonNode answer = turns.get(i + 1);
            t.allQa++;
            String gold = typeOf(file, d, i, user, "type", "");
            String pred = typeOf(file, d, i + 1, answer, "predict_type", ANSWERABLE);
            gold = gold.isEmpty() ? ANSWERABLE : gold;
            pred = pred.isEmpty() ? ANSWERABLE : pred;
            t.types.computeIfAbsent(gold, k -> new int[3])[0]++;
            t.types.computeIfAbsent(pred, k -> new int[3])[1]++;
            if (gold.equals(pred)) {
                t.types.get(gold)[2]++;
            }
            if (gold.equals(ANSWERABLE)) {
                t.allSqlQa++;
            }
            String predSql = PyJson.text(answer, "predict_sql", "");
            String goldSql = PyJson.text(answer, "query", "");
            String em = "not-executed";
            String qmVerdict = "not-executed";
            boolean accs = false;
            boolean tdex = false;
            boolean ex = false;
            boolean breaks = false;
            int failed = 0;
            String error = null;
            if (gold.equals(ANSWERABLE) && pred.equals(ANSWERABLE)) {
                t.allSqlA++;
                if (i >= 2 && "ambiguous".equals(PyJson.text(turns.get(i - 2), "type", ""))) {
                    t.ambClaA++;
                }
                if (predSql == null || goldSql == null) {
                    em = "exception";
                    error = "AttributeError: predict_sql or query is not a string";
                } else {
                    AccsExecMatch.Outcome o = AccsExecMatch.evaluate(runner, d.db(), predSql, goldSql);
                    failed += o.failedStatements();
                    error = o.goldError() != null ? "gold: " + o.goldError() + (o.predError() != null ? "; prediction: "
                            + o.predError() : "") : o.predError() != null ? "prediction: " + o.predError() : null;
                    switch (o.verdict()) {
                        case MATCH -> {
                            em = "match";
                            ex = tdex = true;
                        }
                        case NO_MATCH -> {
                            em = "no-match";
                            breaks = true;
                        }
                        case EXCEPTION -> {
                            em = "exception";
                            error = "TypeError: set(None)" + (error == null ? "" : " (" + error + ")");
                        }
                    }
                }
                qmVerdict = qmOf(d.db(), predSql, goldSql);
                if (qmVerdict.equals("match")) {
                    t.qm++;
                    accs = true;
                    t.turnQm.computeIfAbsent(i / 2 + 1, k -> new int[2])[0]++;
                } else {
                    iaccs = false;
                    imatch = false;
                }
            }
            if (gold.equals("ambiguous") && pred.equals(ANSWERABLE)) {
                t.ambA++;
                try {
                    String next = i + 3 < turns.size() ? PyJson.text(turns.get(i + 3), "query", "") : null;
                    if (next != null && qm.match(d.db(), next, AccsQm.sqlOfReply(PyJson.text(answer, "predict", "")))) {
                        t.ambAMatched++;
                    }
                } catch (RuntimeException e) {
                    // the script prints "AmbA error" and goes on
                }
            }
            if (gold.equals(pred) && !pred.equals(ANSWERABLE)) {
                tdex = true;
                accs = true;
            }
            if (!gold.equals(pred)) {
                iaccs = false;
            }
            if (gold.equals("ambiguous") && pred.equals("ambiguous")) {
                t.rewrittenAmb++;
                String next = i + 3 < turns.size() ? PyJson.text(turns.get(i + 3), "query", "") : null;
                for (String rewritten : rewrittenOutputs(file, d, i + 1, answer)) {
                    if (next != null && qmOf(d.db(), rewritten, next).equals("match")) {
                        t.rewrittenAmbCorrect++;
                        break;
                    }
                }
            }
            boolean rewrittenSuccess = false;
            if (gold.equals(ANSWERABLE) && pred.equals("ambiguous")) {
                imatch = false;
                t.rewrittenAns++;
                for (String rewritten : rewrittenOutputs(file, d, i + 1, answer)) {
                    if (goldSql == null) {
                        break;
                    }
                    AccsExecMatch.Outcome o = AccsExecMatch.evaluate(runner, d.db(), rewritten, goldSql);
                    failed += o.failedStatements();
                    if (o.verdict() == AccsExecMatch.Verdict.MATCH) {
                        rewrittenSuccess = true;
                        break;
                    }
                }
                if (rewrittenSuccess) {
                    t.rewrittenAnsCorrect++;
                    ex = tdex = true;
                    em = "match (rewritten output)";
                } else {
                    breaks = true;
                }
            }
            if (gold.equals(ANSWERABLE) && pred.equals("unanswerable") && !rewrittenSuccess) {
                breaks = true;
            }
            t.errors += failed;
            t.em += ex ? 1 : 0;
            t.duem += tdex ? 1 : 0;
            t.accs += accs ? 1 : 0;
            iduem &= !breaks;
            userTurns.add(i);
            mine.add(new AccsTurn(d.index(), i, i / 2 + 1, d.db(), gold, pred, em, tdex, ex, breaks, qmVerdict, accs,
                    failed, goldSql, predSql, error, null));
        }
        for (AccsTurn turn : mine) {
            t.turns.add(new AccsTurn(turn.dialogue(), turn.turnIndex(), turn.turn(), turn.db(), turn.goldType(),
                    turn.predictedType(), turn.em(), turn.tdex(), turn.ex(), turn.breaksIex(), turn.qm(), turn.accs(),
                    turn.failedStatements(),
                    turn.gold(), turn.prediction(), turn.error(), rqsOfUserTurn.get(turn.turnIndex())));
        }
        if (iduem) {
            t.iduem++;
        }
        if (iaccs) {
            t.iaccs++;
        }
        if (imatch) {
            t.im++;
        }
    }

    /** QM of one prediction: {@code match}, {@code no-match} or {@code exception: why} (caught by the script). */
    private String qmOf(String db, String prediction, String gold) {
        try {
            return qm.match(db, prediction, gold) ? "match" : "no-match";
        } catch (RuntimeException e) {
            return "exception: " + e.getMessage();
        }
    }

    /** The RQS lines at the top of the script's loop, for index i. */
    private static void rqs(AccsOutputFile file, AccsOutputFile.Dialogue d, int i, Tally t, Map<Integer, Integer> ofUserTurn) {
        List<JsonNode> turns = d.turns();
        int prev = i == 0 ? turns.size() - 1 : i - 1;
        JsonNode goldNode = turns.get(prev).get("type");
        JsonNode predNode = turns.get(i).get("predict_type");
        String gold = goldNode == null ? "" : goldNode.isTextual() ? goldNode.textValue() : null;
        if (ANSWERABLE.equals(gold)) {
            return;
        }
        int rqs = 0;
        boolean same = predNode == null ? ANSWERABLE.equals(gold) : goldNode == null ? predNode.isTextual()
                && predNode.textValue().isEmpty() : predNode.equals(goldNode);
        if (same) {
            JsonNode v = turns.get(i).get("RQS");
            rqs = v == null ? 0 : pyInt(file, d, i, v);
        }
        if (gold != null && AccsFigures.RQS_TYPES.contains(gold)) {
            t.rqsSums.merge(gold, rqs, Integer::sum);
            t.rqsCounts.merge(gold, 1, Integer::sum);
            ofUserTurn.put(prev, rqs);
        }
    }

    /** Python's {@code int(value)} for what a JSON file can hold; a value it refuses stops the script. */
    static int pyInt(AccsOutputFile file, AccsOutputFile.Dialogue d, int turn, JsonNode v) {
        if (v.isBoolean()) {
            return v.booleanValue() ? 1 : 0;
        }
        if (v.isIntegralNumber()) {
            return v.intValue();
        }
        if (v.isNumber()) {
            return (int) v.doubleValue();
        }
        if (v.isTextual() && PY_INT.matcher(v.textValue().strip()).matches()) {
            return new BigInteger(v.textValue().strip().replace("_", "")).intValue();
        }
        throw AccsOutputFile.refused(file.path(), "dialogue " + d.index() + ", turn " + turn + ": RQS " + v
                + " is counted but int() cannot read it (accs_eval.py stops there with an error)");
    }

    private static String typeOf(AccsOutputFile file, AccsOutputFile.Dialogue d, int turn, JsonNode node, String key,
                                 String absent) {
        String s = PyJson.text(node, key, absent);
        if (s == null) {
            throw AccsOutputFile.refused(file.path(), "dialogue " + d.index() + ", turn " + turn + ": " + key + " is "
                    + node.get(key) + ", not a string (accs_eval.py stops there with an error)");
        }
        return s;
    }

    /** {@code for r in turns[i+1].get('rewritten_outputs', [])}: a list's entries, or a string's characters. */
    private static List<String> rewrittenOutputs(AccsOutputFile file, AccsOutputFile.Dialogue d, int turn, JsonNode answer) {
        JsonNode v = answer.get("rewritten_outputs");
        List<String> out = new ArrayList<>();
        if (v == null || v.isNull()) {
            return out;
        }
        if (v.isTextual()) {
            v.textValue().codePoints().forEach(c -> out.add(new String(Character.toChars(c))));
            return out;
        }
        if (v.isArray()) {
            for (JsonNode e : v) {
                if (!e.isTextual()) {
                    throw AccsOutputFile.refused(file.path(), "dialogue " + d.index() + ", turn " + turn
                            + ": a rewritten_outputs entry is not a string (accs_eval.py stops printing it)");
                }
                out.add(e.textValue());
            }
            return out;
        }
        throw AccsOutputFile.refused(file.path(), "dialogue " + d.index() + ", turn " + turn + ": rewritten_outputs is "
                + v.getNodeType() + " (accs_eval.py cannot iterate it)");
    }
}

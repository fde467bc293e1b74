package io.flowsql.benchmarks.eval.metrics;

import io.flowsql.benchmarks.eval.semantics.MmsqlAccsExec;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of MMSQL's evaluation script, counted as it counts them over every user turn of every dialogue:
 * <ul>
 *   <li><b>EX</b> = turns answerable in gold and prediction whose SQL matches / turns answerable in both;</li>
 *   <li><b>TDEX</b> = (those EX-correct turns + turns of another type detected right) / all user turns;</li>
 *   <li><b>IEX</b> = dialogues with no answerable turn lost (EX-wrong, or predicted unanswerable) / all dialogues — a
 *       turn predicted ambiguous or improper does not break it, as in the script when no rewritten output is given;</li>
 *   <li>precision, recall and F1 per type over the four types, and their average F1.</li>
 * </ul>
 * A turn with no prediction counts as predicted {@code answerable} with no SQL, the script's default.
 */
public record MmsqlAccsMetrics(Accuracy tdex, Accuracy ex, Accuracy iex, Map<String, PrecisionRecall> types,
                               double averageF1) {
    public static final List<String> TYPES = List.of("answerable", "unanswerable", "ambiguous", "improper");

    public static MmsqlAccsMetrics of(List<ItemOutcome> outcomes) {
        int allQa = 0;
        int tdexCorrect = 0;
        int bothAnswerable = 0;
        int exCorrect = 0;
        Map<String, Boolean> dialogueIntact = new LinkedHashMap<>();
        Map<String, int[]> counts = new LinkedHashMap<>();
        TYPES.forEach(t -> counts.put(t, new int[3]));
        for (ItemOutcome o : outcomes) {
            String gold = MmsqlAccsExec.goldType(o.item());
            String pred = predictedType(o);
            allQa++;
            counts.computeIfAbsent(gold, k -> new int[3])[0]++;
            counts.computeIfAbsent(pred, k -> new int[3])[1]++;
            if (gold.equals(pred)) {
                counts.get(gold)[2]++;
            }
            String dialogue = o.item().dialogueId() == null ? o.item().id() : o.item().dialogueId();
            dialogueIntact.putIfAbsent(dialogue, true);
            boolean answerable = gold.equals(MmsqlAccsExec.ANSWERABLE);
            if (answerable && pred.equals(MmsqlAccsExec.ANSWERABLE)) {
                bothAnswerable++;
                if (o.correct()) {
                    exCorrect++;
                    tdexCorrect++;
                } else {
                    dialogueIntact.put(dialogue, false);
                }
            } else if (gold.equals(pred)) {
                tdexCorrect++;
            }
            if (answerable && pred.equals("unanswerable")) {
                dialogueIntact.put(dialogue, false);
            }
        }
        Map<String, PrecisionRecall> types = new LinkedHashMap<>();
        double f1Sum = 0;
        for (String t : TYPES) {
            int[] c = counts.get(t);
            PrecisionRecall pr = new PrecisionRecall(c[2], c[1] - c[2], c[0] - c[2]);
            types.put(t, pr);
            f1Sum += pr.f1();
        }
        int intact = (int) dialogueIntact.values().stream().filter(b -> b).count();
        return new MmsqlAccsMetrics(new Accuracy(tdexCorrect, allQa), new Accuracy(exCorrect, bothAnswerable),
                new Accuracy(intact, dialogueIntact.size()), types, f1Sum / TYPES.size());
    }

    private static String predictedType(ItemOutcome o) {
        String t = o.predictedType();
        return t == null || t.isBlank() ? MmsqlAccsExec.ANSWERABLE : t;
    }
}

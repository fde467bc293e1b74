package io.flowsql.benchmarks.eval.rqs;

import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.benchmarks.eval.semantics.MmsqlAccsExec;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * RQS as MMSQL's script averages it: every turn whose gold type is unanswerable, ambiguous or improper gets the judge's
 * score when the predicted type is the gold type and 0 otherwise; the average is taken per type, and the overall RQS is
 * the mean of the three type averages (a type with no turn counts 0, as in the script).
 *
 * @param byType  average per gold type
 * @param turns   turns per gold type
 * @param judged  turns sent to the judge
 * @param errors  judged turns the judge never scored (counted 0)
 * @param judgeModel the judge's model, named in the reports
 */
public record RqsScores(Map<String, Double> byType, Map<String, Integer> turns, double overall, int judged, int errors,
                        String judgeModel) {
    public static final List<String> TYPES = List.of("unanswerable", "ambiguous", "improper");

    /** @param judge the judgement of one outcome (called only for turns of a scored type predicted right) */
    public static RqsScores of(List<ItemOutcome> outcomes, Function<ItemOutcome, RqsJudge.Judgement> judge, String judgeModel) {
        Map<String, Double> sums = new LinkedHashMap<>();
        Map<String, Integer> counts = new LinkedHashMap<>();
        TYPES.forEach(t -> {
            sums.put(t, 0.0);
            counts.put(t, 0);
        });
        int judged = 0;
        int errors = 0;
        for (ItemOutcome o : outcomes) {
            String gold = MmsqlAccsExec.goldType(o.item());
            if (!sums.containsKey(gold)) {
                continue;
            }
            counts.merge(gold, 1, Integer::sum);
            if (gold.equals(o.predictedType())) {
                RqsJudge.Judgement j = judge.apply(o);
                judged++;
                if (j.ok()) {
                    sums.merge(gold, (double) j.score(), Double::sum);
                } else {
                    errors++;
                }
            }
        }
        Map<String, Double> averages = new LinkedHashMap<>();
        double total = 0;
        for (String t : TYPES) {
            double avg = counts.get(t) == 0 ? 0 : sums.get(t) / counts.get(t);
            averages.put(t, avg);
            total += avg;
        }
        return new RqsScores(averages, counts, total / TYPES.size(), judged, errors, judgeModel);
    }
}

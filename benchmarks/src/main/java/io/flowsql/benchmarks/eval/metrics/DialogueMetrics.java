package io.flowsql.benchmarks.eval.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * MMSQL-style dialogue scores (our reading, documented in docs/EVALUATION.md): a turn is TDEX-correct when
 * it owes SQL and the predicted SQL matches by execution, or owes none and its type was detected right;
 * IEX is the share of dialogues whose every SQL-owing turn (with a working gold) is EX-correct; type
 * detection is scored with precision, recall and F1 per gold type.
 */
public final class DialogueMetrics {
    private DialogueMetrics() {}

    /** Per-turn TDEX over every typed turn whose gold (if any) ran. */
    public static Accuracy tdex(List<ItemOutcome> outcomes) {
        Accuracy a = Accuracy.empty();
        for (ItemOutcome o : typedTurns(outcomes)) {
            a = a.plus(turnCorrect(o));
        }
        return a;
    }

    /** TDEX split by gold question type. */
    public static Map<String, Accuracy> tdexByType(List<ItemOutcome> outcomes) {
        Map<String, Accuracy> table = new TreeMap<>();
        for (ItemOutcome o : typedTurns(outcomes)) {
            table.merge(o.item().questionType(), Accuracy.empty().plus(turnCorrect(o)),
                    (x, y) -> new Accuracy(x.correct() + y.correct(), x.total() + y.total()));
        }
        return table;
    }

    /** IEX: dialogues (with at least one scorable SQL turn) whose SQL turns are all correct. */
    public static Accuracy iex(List<ItemOutcome> outcomes) {
        Map<String, List<ItemOutcome>> byDialogue = new LinkedHashMap<>();
        for (ItemOutcome o : outcomes) {
            if (o.item().dialogueId() != null && o.item().owesSql() && o.scorable()) {
                byDialogue.computeIfAbsent(o.item().dialogueId(), k -> new ArrayList<>()).add(o);
            }
        }
        Accuracy a = Accuracy.empty();
        for (List<ItemOutcome> turns : byDialogue.values()) {
            a = a.plus(turns.stream().allMatch(ItemOutcome::correct));
        }
        return a;
    }

    /** Precision/recall/F1 of type detection for each gold or predicted type (turns with an unknown gold type left out). */
    public static Map<String, PrecisionRecall> typeDetection(List<ItemOutcome> outcomes) {
        List<ItemOutcome> turns = outcomes.stream().filter(DialogueMetrics::hasKnownType).toList();
        TreeSet<String> types = new TreeSet<>();
        turns.forEach(o -> {
            types.add(o.item().questionType());
            if (o.predictedType() != null) {
                types.add(o.predictedType());
            }
        });
        Map<String, PrecisionRecall> table = new LinkedHashMap<>();
        for (String t : types) {
            int tp = 0;
            int fp = 0;
            int fn = 0;
            for (ItemOutcome o : turns) {
                boolean gold = t.equals(o.item().questionType());
                boolean pred = t.equals(o.predictedType());
                tp += gold && pred ? 1 : 0;
                fp += !gold && pred ? 1 : 0;
                fn += gold && !pred ? 1 : 0;
            }
            table.put(t, new PrecisionRecall(tp, fp, fn));
        }
        return table;
    }

    static boolean turnCorrect(ItemOutcome o) {
        if (o.item().owesSql()) {
            return o.correct();
        }
        return Objects.equals(o.item().questionType(), o.predictedType());
    }

    private static List<ItemOutcome> typedTurns(List<ItemOutcome> outcomes) {
        return outcomes.stream().filter(o -> hasKnownType(o) && o.scorable()).toList();
    }

    private static boolean hasKnownType(ItemOutcome o) {
        String t = o.item().questionType();
        return t != null && !t.equals("unknown");
    }
}

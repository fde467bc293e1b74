package io.flowsql.benchmarks.eval.metrics;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * EX overall and per difficulty over the items whose gold SQL ran; items whose gold failed are counted
 * apart and never against the prediction.
 */
public final class ExecutionAccuracy {
    private ExecutionAccuracy() {}

    public static Accuracy overall(List<ItemOutcome> outcomes) {
        Accuracy a = Accuracy.empty();
        for (ItemOutcome o : outcomes) {
            if (o.scorable() && o.item().owesSql()) {
                a = a.plus(o.correct());
            }
        }
        return a;
    }

    /** EX by difficulty (BIRD) or hardness (Spider), in name order. */
    /** Spider's and BIRD's levels from easiest to hardest; any other label after them, alphabetically. */
    private static final List<String> LEVELS = List.of("easy", "simple", "medium", "moderate", "hard", "challenging", "extra");
    private static final java.util.Comparator<String> DIFFICULTY_ORDER = java.util.Comparator
            .<String>comparingInt(d -> LEVELS.contains(d) ? LEVELS.indexOf(d) : LEVELS.size())
            .thenComparing(java.util.Comparator.naturalOrder());

    public static Map<String, Accuracy> byDifficulty(List<ItemOutcome> outcomes) {
        Map<String, Accuracy> table = new TreeMap<>(DIFFICULTY_ORDER);
        for (ItemOutcome o : outcomes) {
            if (o.scorable() && o.item().owesSql()) {
                table.merge(o.item().difficulty(), Accuracy.empty().plus(o.correct()),
                        (x, y) -> new Accuracy(x.correct() + y.correct(), x.total() + y.total()));
            }
        }
        return table;
    }

    public static long goldErrors(List<ItemOutcome> outcomes) {
        return outcomes.stream().filter(o -> !o.scorable()).count();
    }
}

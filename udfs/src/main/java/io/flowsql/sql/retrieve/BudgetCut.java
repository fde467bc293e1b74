package io.flowsql.sql.retrieve;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which of the offered tables fit a token budget, by adding up their measured costs ({@link TableCosts}): tables are
 * taken in the order offered, the first ones in full while they take at most {@code detailedShare} of the budget, the
 * later ones in brief, each with the foreign-key lines that join it to the tables already taken (and the heading with
 * the first such line); a table that does not fit is passed over and the next one tried. One pass, no rendering.
 */
final class BudgetCut {
    final List<Integer> kept = new ArrayList<>();
    final Set<Integer> brief = new HashSet<>();
    /** The kept tables' summed cost; {@link #costs} of each in the order taken. */
    int tokens;
    private final List<Integer> costs = new ArrayList<>();

    BudgetCut(List<Integer> order, TableCosts cost, int budget, double detailedShare) {
        boolean[] taken = new boolean[cost.full.length];
        boolean anyLine = false;
        for (int i : order) {
            int lines = 0;
            for (int k = 0; k < cost.neighbour[i].length; k++) {
                int other = cost.neighbour[i][k];
                if (taken[other] || other == i) {
                    lines += cost.lineTokens[i][k];
                }
            }
            if (lines > 0 && !anyLine) {
                lines += cost.header;
            }
            boolean detailed = tokens + cost.full[i] + lines <= budget * detailedShare;
            int c = (detailed ? cost.full[i] : cost.brief[i]) + lines;
            if (tokens + c <= budget) {
                taken[i] = true;
                kept.add(i);
                costs.add(c);
                tokens += c;
                anyLine |= lines > 0;
                if (!detailed) {
                    brief.add(i);
                }
            }
        }
        if (kept.isEmpty() && !order.isEmpty()) {
            kept.add(order.get(0));  // a single table larger than the budget is still shown: a schema of none answers nothing
            costs.add(cost.full[order.get(0)]);
            tokens = cost.full[order.get(0)];
        }
    }

    /**
     * Drops the last tables taken until the sum is at most {@code limit} (when the rendering measured more than the
     * sum, by the tokenizer's merges across parts); keeps at least one. Returns whether anything was dropped.
     */
    boolean trimTo(int limit) {
        boolean dropped = false;
        while (tokens > limit && kept.size() > 1) {
            int last = kept.size() - 1;
            tokens -= costs.remove(last);
            brief.remove(kept.remove(last));
            dropped = true;
        }
        return dropped;
    }
}

package io.flowsql.benchmarks.eval.metrics;

import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class DialogueMetricsTest {

    private static ItemOutcome turn(String dialogue, int turn, String goldType, String gold, String predType,
                                    boolean correct, String goldError) {
        BenchmarkItem item = new BenchmarkItem(dialogue + "-" + turn, 0, "db", "q", "", gold, "unknown", dialogue, turn, goldType);
        return new ItemOutcome(item, null, predType, goldError, null, correct, Double.NaN, List.of());
    }

    /**
     * Dialogue A: answerable ok, improper detected, answerable wrong.
     * Dialogue B: answerable ok, ambiguous taken for answerable, unanswerable detected, answerable with a broken gold.
     */
    private final List<ItemOutcome> set = List.of(
            turn("A", 0, "answerable", "SELECT 1", "answerable", true, null),
            turn("A", 1, "improper", "", "improper", false, null),
            turn("A", 2, "answerable", "SELECT 2", "answerable", false, null),
            turn("B", 0, "answerable", "SELECT 3", "answerable", true, null),
            turn("B", 1, "ambiguous", "", "answerable", false, null),
            turn("B", 2, "unanswerable", "", "unanswerable", false, null),
            turn("B", 3, "answerable", "SELECT ! = 4", "answerable", false, "INVALID_SQL: near \"!\""));

    @Test
    void tdexCountsSqlTurnsByExecutionAndOtherTurnsByType() {
        // scorable typed turns: A0 ok, A1 ok, A2 no, B0 ok, B1 no, B2 ok -> 4/6 (B3's gold failed: left out)
        assertThat(DialogueMetrics.tdex(set)).isEqualTo(new Accuracy(4, 6));
        assertThat(DialogueMetrics.tdexByType(set)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "ambiguous", new Accuracy(0, 1), "answerable", new Accuracy(2, 3),
                "improper", new Accuracy(1, 1), "unanswerable", new Accuracy(1, 1)));
    }

    @Test
    void iexNeedsEverySqlTurnOfADialogueRight() {
        // A has A0 ok, A2 wrong -> no; B has B0 ok (B3 gold error not counted) -> yes
        assertThat(DialogueMetrics.iex(set)).isEqualTo(new Accuracy(1, 2));
    }

    @Test
    void typeDetectionPrecisionRecallF1PerType() {
        Map<String, PrecisionRecall> prf = DialogueMetrics.typeDetection(set);
        // answerable: gold A0 A2 B0 B3 all predicted answerable (tp 4), B1 predicted answerable (fp 1)
        assertThat(prf.get("answerable")).isEqualTo(new PrecisionRecall(4, 1, 0));
        assertThat(prf.get("answerable").precision()).isEqualTo(0.8);
        assertThat(prf.get("answerable").f1()).isCloseTo(2 * 0.8 / 1.8, within(1e-12));
        assertThat(prf.get("ambiguous")).isEqualTo(new PrecisionRecall(0, 0, 1));
        assertThat(prf.get("ambiguous").f1()).isZero();
        assertThat(prf.get("improper").f1()).isEqualTo(1.0);
        assertThat(prf.get("unanswerable").support()).isEqualTo(1);
    }
}

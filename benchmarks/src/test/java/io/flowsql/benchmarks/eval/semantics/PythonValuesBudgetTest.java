package io.flowsql.benchmarks.eval.semantics;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.compare.Match;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The official test-suite comparison is bounded too: permutations it cannot afford are undecided at once, not tried. */
class PythonValuesBudgetTest {

    private static List<List<Object>> tiedColumns(int rows) {
        List<List<Object>> out = new ArrayList<>();
        for (long i = 0; i < rows; i++) {
            out.add(List.of(i, i * 3 % rows, i * 7 % rows, i * 9 % rows, i * 11 % rows, i * 13 % rows, i * 17 % rows));
        }
        return out;
    }

    @Test
    void sevenTiedColumnsAreUndecidedOnPlannedWork() {
        List<List<Object>> rows = tiedColumns(20_000);
        long start = System.nanoTime();
        Match match = PythonValues.testSuiteMatch(rows, rows, false, StatementBudget.startingNow(60_000));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(match.decided()).isFalse();
        assertThat(match.undecided()).startsWith("comparison budget exceeded: up to more than 100000 column permutations "
                + "of 20000 rows × 7 columns");
        assertThat(millis).isLessThan(10_000);
        // unbounded, the old entry point still gives its old answer for a small case
        List<List<Object>> small = tiedColumns(50).stream().map(r -> List.<Object>of(r.get(0), r.get(1))).toList();
        assertThat(PythonValues.testSuiteEqual(small, small, false)).isTrue();
        assertThat(PythonValues.testSuiteMatch(small, small, true, StatementBudget.startingNow(60_000))).isEqualTo(Match.EQUAL);
    }

    @Test
    void aSpentBudgetIsUndecidedOnTime() {
        StatementBudget spent = StatementBudget.startingNow(1);
        while (!spent.expired()) {
            Thread.onSpinWait();
        }
        List<List<Object>> rows = tiedColumns(100);
        assertThat(PythonValues.testSuiteMatch(rows, rows, false, spent).undecided())
                .isEqualTo("comparison budget exceeded: the statement's time budget of 1 ms ran out");
    }
}

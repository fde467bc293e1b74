package io.flowsql.benchmarks.eval.semantics;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** result_eq and the set comparisons on hand-made rows, where the dev databases have no example. */
class PythonValuesTest {

    private static List<List<Object>> rows(Object[]... rows) {
        return Arrays.stream(rows).map(r -> Arrays.asList(r)).toList();
    }

    @Test
    void twoEmptyResultsAreEqualWhateverTheirColumns() {
        assertThat(PythonValues.testSuiteEqual(List.of(), List.of(), true)).isTrue();
    }

    @Test
    void multisetsNeedTheSameDuplicatesButSetsDoNot() {
        List<List<Object>> twice = rows(new Object[]{1L}, new Object[]{1L}, new Object[]{2L});
        List<List<Object>> once = rows(new Object[]{1L}, new Object[]{2L}, new Object[]{2L});
        assertThat(PythonValues.testSuiteEqual(twice, once, false)).isFalse();
        assertThat(PythonValues.sameSet(twice, once)).isTrue();
    }

    @Test
    void aPermutationMustBeTheSameForEveryRow() {
        List<List<Object>> gold = rows(new Object[]{1L, 2L}, new Object[]{3L, 4L});
        assertThat(PythonValues.testSuiteEqual(gold, rows(new Object[]{2L, 1L}, new Object[]{4L, 3L}), true)).isTrue();
        // first row swapped, second not: each column's values fit somewhere, but no single permutation works
        assertThat(PythonValues.testSuiteEqual(gold, rows(new Object[]{2L, 1L}, new Object[]{3L, 4L}), false)).isFalse();
        // set comparison never permutes
        assertThat(PythonValues.sameSet(gold, rows(new Object[]{2L, 1L}, new Object[]{4L, 3L}))).isFalse();
    }

    @Test
    void valuesFollowPythonEquality() {
        assertThat(PythonValues.key(1L)).isEqualTo(PythonValues.key(1.0));
        assertThat(PythonValues.key(0.1 + 0.2)).isNotEqualTo(PythonValues.key(0.3));
        assertThat(PythonValues.key("1")).isNotEqualTo(PythonValues.key(1L));
        assertThat(PythonValues.key(new byte[]{'a'})).isNotEqualTo(PythonValues.key("a"));
        assertThat(PythonValues.key(null)).isEqualTo(PythonValues.key(null));
    }
}

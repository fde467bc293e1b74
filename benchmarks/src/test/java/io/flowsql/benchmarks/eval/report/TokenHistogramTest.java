package io.flowsql.benchmarks.eval.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Hand-checked buckets of the tokens-per-question histogram. */
class TokenHistogramTest {

    @Test
    void countsEachQuestionInTheRangeOfItsTokens() {
        TokenHistogram h = TokenHistogram.of(List.of(0, 5, 9, 10, 19, 39), 4);
        // max 39 → width ceil(40 / 4) = 10 → [0–9] [10–19] [20–29] [30–39]
        assertThat(h.labels()).containsExactly("0–9", "10–19", "20–29", "30–39");
        assertThat(h.counts()).containsExactly(3, 2, 0, 1);
        assertThat(h.counts().stream().mapToInt(Integer::intValue).sum()).isEqualTo(6);
    }

    @Test
    void smallCountsGetNarrowBuckets() {
        TokenHistogram h = TokenHistogram.of(List.of(1, 2, 2), 12);
        assertThat(h.labels()).containsExactly("1–1", "2–2");
        assertThat(h.counts()).containsExactly(1, 2);
    }

    @Test
    void bucketsStartAtTheSmallestCountNotAtZero() {
        TokenHistogram h = TokenHistogram.of(List.of(5000, 5100, 5990), 10);
        // span 5990 - 5000 + 1 = 991 → width ceil(991 / 10) = 100 → [5000–5099] ... [5900–5999]
        assertThat(h.labels().get(0)).isEqualTo("5000–5099");
        assertThat(h.counts()).containsExactly(1, 1, 0, 0, 0, 0, 0, 0, 0, 1);
    }
}

package io.flowsql.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class VectorIndexTest {

    /** The cosine as written in the definition, one running sum, for lengths that are and are not multiples of four. */
    @Test
    void theCosineIsTheTextbookOneForEveryLength() {
        Random random = new Random(41);
        for (int length = 1; length <= 13; length++) {
            float[] a = randomVector(random, length);
            float[] b = randomVector(random, length);
            assertThat(VectorIndex.cosine(a, b)).as("length %d", length).isCloseTo(textbookCosine(a, b), within(1e-6));
        }
        assertThat(VectorIndex.cosine(new float[] {1, 0, 0, 0, 0}, new float[] {0, 0, 0, 0, 2})).isCloseTo(0, within(1e-9));
        assertThat(VectorIndex.cosine(new float[] {1, 2, 3, 4, 5}, new float[] {2, 4, 6, 8, 10})).isCloseTo(1, within(1e-6));
        assertThat(VectorIndex.cosine(new float[] {1, 2}, new float[] {1, 2, 3})).isZero();
    }

    /** Every item is scored, the last few of an odd length too: the best k by cosine, best first, above the minimum. */
    @Test
    void aSearchRanksEveryItemByItsCosine() {
        Random random = new Random(7);
        List<String> items = new ArrayList<>();
        List<float[]> vectors = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            items.add("item" + i);
            vectors.add(randomVector(random, 257));
        }
        VectorIndex<String> index = new VectorIndex<>(items, vectors);
        float[] query = vectors.get(31).clone();
        query[256] += 0.5f;
        List<VectorIndex.Hit<String>> hits = index.search(query, 3, -1);
        List<Double> expected = new ArrayList<>();
        for (float[] v : vectors) {
            expected.add(textbookCosine(query, v));
        }
        List<Double> sorted = expected.stream().sorted(java.util.Comparator.reverseOrder()).toList();
        assertThat(hits).hasSize(3);
        assertThat(hits.get(0).item()).isEqualTo("item31");
        for (int h = 0; h < 3; h++) {
            assertThat(hits.get(h).score()).isCloseTo(sorted.get(h), within(1e-6));
        }
        assertThat(index.search(query, 3, sorted.get(0) - 1e-4)).extracting(VectorIndex.Hit::item).containsExactly("item31");
    }

    private static float[] randomVector(Random random, int length) {
        float[] v = new float[length];
        for (int i = 0; i < length; i++) {
            v[i] = (float) random.nextGaussian();
        }
        return v;
    }

    private static double textbookCosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
            na += (double) a[i] * a[i];
            nb += (double) b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }
}

package io.flowsql.retrieval;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Exact nearest-neighbour search by cosine similarity over a fixed set of items: vectors are normalised once when the
 * index is built, a query is one dot product per item. At our sizes (a database's columns: tens to a few hundred; the
 * candidate values of one question: tens) a scan is cheaper than building and searching an approximate graph such as
 * Lucene's HNSW, and it never misses a neighbour. Immutable and thread-safe.
 *
 * @param <T> what a vector stands for (a column, a value)
 */
public final class VectorIndex<T> {
    private final List<T> items;
    private final float[][] vectors;

    /** A scored item. */
    public record Hit<T>(T item, double score) {}

    public VectorIndex(List<T> items, List<float[]> vectors) {
        if (items.size() != vectors.size()) {
            throw new IllegalArgumentException(items.size() + " items but " + vectors.size() + " vectors");
        }
        this.items = List.copyOf(items);
        this.vectors = new float[vectors.size()][];
        for (int i = 0; i < this.vectors.length; i++) {
            this.vectors[i] = normalised(vectors.get(i));
            if (this.vectors[i].length != this.vectors[0].length) {
                throw new IllegalArgumentException("vector " + i + " has " + this.vectors[i].length
                        + " dimensions, the first " + this.vectors[0].length);
            }
        }
    }

    public int size() {
        return items.size();
    }

    /** At most {@code k} items whose cosine with {@code query} is at least {@code minScore}, best first. */
    public List<Hit<T>> search(float[] query, int k, double minScore) {
        float[] q = normalised(query);
        PriorityQueue<Hit<T>> best = new PriorityQueue<>(Comparator.comparingDouble(Hit::score));
        for (int i = 0; i < vectors.length; i++) {
            double score = dot(q, vectors[i]);
            if (score >= minScore && (best.size() < k || score > best.peek().score())) {
                best.add(new Hit<>(items.get(i), score));
                if (best.size() > k) {
                    best.poll();
                }
            }
        }
        List<Hit<T>> out = new ArrayList<>(best);
        out.sort(Comparator.comparingDouble((Hit<T> h) -> h.score()).reversed());
        return out;
    }

    /** The cosine similarity of two vectors (0 when either is all zeros or their lengths differ). */
    public static double cosine(float[] a, float[] b) {
        return a.length != b.length ? 0 : dot(normalised(a), normalised(b));
    }

    private static double dot(float[] a, float[] b) {
        if (a.length != b.length) {
            return 0;
        }
        // four independent sums: one running sum waits for each addition before the next (a chain the CPU cannot
        // overlap), and retrieval scores every phrase of a question against every column (issue 41's profile)
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int i = 0;
        for (int end = a.length - 3; i < end; i += 4) {
            s0 += a[i] * b[i];
            s1 += a[i + 1] * b[i + 1];
            s2 += a[i + 2] * b[i + 2];
            s3 += a[i + 3] * b[i + 3];
        }
        for (; i < a.length; i++) {
            s0 += a[i] * b[i];
        }
        return (s0 + s1) + (s2 + s3);
    }

    static float[] normalised(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        if (norm == 0) {
            return v.clone();
        }
        float scale = (float) (1 / Math.sqrt(norm));
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i] * scale;
        }
        return out;
    }
}

package io.flowsql.benchmarks.eval.report;

import java.util.ArrayList;
import java.util.List;

/**
 * Tokens per question as a histogram (questions per range of equal width between the smallest and the largest count),
 * because one bar per question is unreadable for a benchmark of a thousand questions.
 */
record TokenHistogram(List<String> labels, List<Integer> counts) {

    static TokenHistogram of(List<Integer> tokensPerQuestion, int buckets) {
        int max = tokensPerQuestion.stream().mapToInt(Integer::intValue).max().orElse(0);
        int min = tokensPerQuestion.stream().mapToInt(Integer::intValue).min().orElse(0);
        int span = max - min + 1;
        int width = Math.max(1, (int) Math.ceil(span / (double) buckets));
        int used = Math.max(1, (int) Math.ceil(span / (double) width));
        int[] counts = new int[used];
        for (int tokens : tokensPerQuestion) {
            counts[Math.min(used - 1, (tokens - min) / width)]++;
        }
        List<String> labels = new ArrayList<>();
        List<Integer> values = new ArrayList<>();
        for (int i = 0; i < used; i++) {
            labels.add((min + i * width) + "–" + (min + (i + 1) * width - 1));
            values.add(counts[i]);
        }
        return new TokenHistogram(labels, values);
    }
}

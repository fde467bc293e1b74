package io.flowsql.benchmarks.eval.report;

import java.util.ArrayList;
import java.util.List;

/**
 * Tokens per question as a histogram (questions per range of equal width), because one bar per question is
 * unreadable for a benchmark of a thousand questions.
 */
record TokenHistogram(List<String> labels, List<Integer> counts) {

    static TokenHistogram of(List<Integer> tokensPerQuestion, int buckets) {
        int max = tokensPerQuestion.stream().mapToInt(Integer::intValue).max().orElse(0);
        int width = Math.max(1, (int) Math.ceil((max + 1) / (double) buckets));
        int used = Math.max(1, (int) Math.ceil((max + 1) / (double) width));
        int[] counts = new int[used];
        for (int tokens : tokensPerQuestion) {
            counts[Math.min(used - 1, tokens / width)]++;
        }
        List<String> labels = new ArrayList<>();
        List<Integer> values = new ArrayList<>();
        for (int i = 0; i < used; i++) {
            labels.add(i * width + "–" + ((i + 1) * width - 1));
            values.add(counts[i]);
        }
        return new TokenHistogram(labels, values);
    }
}

package io.flowsql.benchmarks.eval.metrics;

/** Precision, recall and F1 of one class (a question type), from true positives, false positives and false negatives. */
public record PrecisionRecall(int truePositives, int falsePositives, int falseNegatives) {

    public double precision() {
        int d = truePositives + falsePositives;
        return d == 0 ? 0 : (double) truePositives / d;
    }

    public double recall() {
        int d = truePositives + falseNegatives;
        return d == 0 ? 0 : (double) truePositives / d;
    }

    public double f1() {
        double p = precision();
        double r = recall();
        return p + r == 0 ? 0 : 2 * p * r / (p + r);
    }

    /** How many turns had this gold type. */
    public int support() {
        return truePositives + falseNegatives;
    }
}

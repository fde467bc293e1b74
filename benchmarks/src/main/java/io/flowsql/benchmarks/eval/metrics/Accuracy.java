package io.flowsql.benchmarks.eval.metrics;

/** A count of correct answers out of a total, with the rate as a percentage (0 when the total is 0). */
public record Accuracy(int correct, int total) {

    public double percent() {
        return total == 0 ? 0.0 : 100.0 * correct / total;
    }

    public Accuracy plus(boolean ok) {
        return new Accuracy(correct + (ok ? 1 : 0), total + 1);
    }

    public static Accuracy empty() {
        return new Accuracy(0, 0);
    }
}

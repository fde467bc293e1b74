package io.flowsql.benchmarks.throughput;

import java.util.Arrays;
import java.util.List;

/**
 * What one run measured (questions answered, wall time, LLM calls, end-to-end latencies, when each answer came) and
 * the figures the benchmark prints from it: questions/second over the whole run and at steady state, their share of
 * the ideal, p50/p95/p99 latency.
 */
record RunFigures(String name, int questions, long wallMillis, long llmCalls, List<Long> latenciesMillis,
                  List<Long> answeredAtMillis) {

    /** A run whose answer times were not kept (steady state = the whole run). */
    RunFigures(String name, int questions, long wallMillis, long llmCalls, List<Long> latenciesMillis) {
        this(name, questions, wallMillis, llmCalls, latenciesMillis, List.of());
    }

    /**
     * The rate between the 10th and the 90th percentile of answer times: the pipeline full, without the time it takes
     * to fill (the first answer needs all of a question's calls and a checkpoint) and to drain. The whole-run rate is
     * {@link #questionsPerSecond()}; both are printed.
     */
    double steadyQuestionsPerSecond() {
        if (answeredAtMillis.size() < 20) {
            return questionsPerSecond();
        }
        long[] at = answeredAtMillis.stream().mapToLong(Long::longValue).sorted().toArray();
        int from = at.length / 10;
        int to = at.length * 9 / 10;
        long span = at[to] - at[from];
        return span <= 0 ? questionsPerSecond() : (to - from) * 1000.0 / span;
    }

    double questionsPerSecond() {
        return questions * 1000.0 / wallMillis;
    }

    double llmCallsPerQuestion() {
        return (double) llmCalls / questions;
    }

    /** S / (L × calls per question): what S server slots of latency L could serve if nothing else cost time. */
    double idealQuestionsPerSecond(int slots, long latencyMillis) {
        return slots * 1000.0 / (latencyMillis * llmCallsPerQuestion());
    }

    long percentile(double p) {
        long[] sorted = latenciesMillis.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(sorted);
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    String line(int slots, long latencyMillis) {
        double ideal = idealQuestionsPerSecond(slots, latencyMillis);
        return String.format("%-34s %5d q in %7.1f s  %7.2f q/s  %4.2f LLM calls/q  ideal %7.2f q/s  ratio %5.3f"
                        + "  p50 %6d ms  p95 %6d ms  p99 %6d ms",
                name, questions, wallMillis / 1000.0, questionsPerSecond(), llmCallsPerQuestion(), ideal,
                questionsPerSecond() / ideal, percentile(50), percentile(95), percentile(99));
    }

    /** The steady-state rate and its share of the ideal (for runs that kept their answer times). */
    String steadyLine(int slots, long latencyMillis) {
        double ideal = idealQuestionsPerSecond(slots, latencyMillis);
        return String.format("  at steady state (10th–90th percentile of answer times): %7.2f q/s, ratio %5.3f of ideal",
                steadyQuestionsPerSecond(), steadyQuestionsPerSecond() / ideal);
    }
}

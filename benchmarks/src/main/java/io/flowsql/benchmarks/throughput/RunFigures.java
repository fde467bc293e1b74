package io.flowsql.benchmarks.throughput;

import java.util.Arrays;
import java.util.List;

/**
 * What one run measured (questions answered, wall time, LLM calls, end-to-end latencies, each question's own
 * {@link LlmFloor} in the same order, and when each answer was read, in ms since the run's start) and the figures the
 * benchmark prints from it: questions/second, its share of the ideal, p50/p99 latency, latency over the own floor.
 */
record RunFigures(String name, int questions, long wallMillis, long llmCalls, List<Long> latenciesMillis,
                  List<Long> llmFloorsMillis, List<Long> answeredAtMillis) {

    RunFigures {
        if (llmFloorsMillis.size() != latenciesMillis.size()) {
            throw new IllegalArgumentException(llmFloorsMillis.size() + " floors for " + latenciesMillis.size()
                    + " latencies");
        }
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

    /**
     * About the most a burst of these questions could reach of the ideal if the job itself cost nothing: the slots'
     * work at the ideal rate, with the median own floor paid once on top (the pipeline fills and drains once: the last
     * questions' chain of calls runs while slots fall idle). The exactly-once commit after the last answer comes on top.
     */
    double burstCeiling(int slots, long latencyMillis) {
        double workMillis = questions * 1000.0 / idealQuestionsPerSecond(slots, latencyMillis);
        return workMillis / (workMillis + floorPercentile(50));
    }

    long percentile(double p) {
        return percentileOf(latenciesMillis.stream().mapToLong(Long::longValue).toArray(), p);
    }

    /** The p-th percentile of the questions' own LLM floors. */
    long floorPercentile(double p) {
        return percentileOf(llmFloorsMillis.stream().mapToLong(Long::longValue).toArray(), p);
    }

    /** The p-th percentile of each question's latency minus its own LLM floor: what the job added to it. */
    long percentileOverOwnFloor(double p) {
        long[] over = new long[latenciesMillis.size()];
        for (int i = 0; i < over.length; i++) {
            over[i] = latenciesMillis.get(i) - llmFloorsMillis.get(i);
        }
        return percentileOf(over, p);
    }

    private static long percentileOf(long[] values, double p) {
        long[] sorted = values.clone();
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
}

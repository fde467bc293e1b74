package io.flowsql.llm;

/** Totals of one stage's calls at one moment: counts, tokens, retries and summed latency. */
public record StageUsage(long calls, long failures, long retries, long promptTokens, long completionTokens,
        long estimatedCalls, long totalLatencyMillis) {

    public static final StageUsage EMPTY = new StageUsage(0, 0, 0, 0, 0, 0, 0);

    StageUsage plus(UsageRecord record) {
        TokenUsage usage = record.usage();
        return new StageUsage(calls + 1, failures + (record.failed() ? 1 : 0), retries + record.retries(),
                promptTokens + usage.promptTokens(), completionTokens + usage.completionTokens(),
                estimatedCalls + (usage.estimated() ? 1 : 0), totalLatencyMillis + record.latencyMillis());
    }

    public long totalTokens() {
        return promptTokens + completionTokens;
    }
}

package io.flowsql.llm;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Adds up what the LLM calls cost per stage (calls, tokens, retries, failures, latency) for reports (the Flink
 * operators publish their metrics from each stage's trace entry, see StageMetrics).
 */
public final class UsageMeter {
    private final Map<String, StageUsage> byStage = new ConcurrentHashMap<>();

    public void record(UsageRecord record) {
        byStage.merge(record.stage(), StageUsage.EMPTY.plus(record), (old, ignored) -> old.plus(record));
    }

    public StageUsage stage(String stage) {
        return byStage.getOrDefault(stage, StageUsage.EMPTY);
    }

    /** Every stage seen so far, sorted by name. */
    public Map<String, StageUsage> snapshot() {
        return new TreeMap<>(byStage);
    }

    public StageUsage total() {
        StageUsage sum = StageUsage.EMPTY;
        for (StageUsage s : byStage.values()) {
            sum = new StageUsage(sum.calls() + s.calls(), sum.failures() + s.failures(), sum.retries() + s.retries(),
                    sum.promptTokens() + s.promptTokens(), sum.completionTokens() + s.completionTokens(),
                    sum.estimatedCalls() + s.estimatedCalls(), sum.totalLatencyMillis() + s.totalLatencyMillis());
        }
        return sum;
    }
}

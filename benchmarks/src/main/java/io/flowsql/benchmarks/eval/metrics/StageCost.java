package io.flowsql.benchmarks.eval.metrics;

/** One stage's latency and tokens for one answer, as read from the answer's trace. */
public record StageCost(String stage, long latencyMillis, int promptTokens, int completionTokens) {}

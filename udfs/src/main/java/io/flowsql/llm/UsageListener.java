package io.flowsql.llm;

/** Hook through which the Flink job turns every finished call into metrics. */
@FunctionalInterface
public interface UsageListener {
    void onCall(UsageRecord record);
}

package io.flowsql.flink;

import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageTrace;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

/**
 * The per-stage figures an operator reports to Flink's metric system (group "flowsql" / "stage" = name). A stage's
 * applications finish on the engine's pool threads, many at once, while skips and timeouts are counted on the task
 * thread: every counter is Flink's thread-safe one (a plain {@code SimpleCounter} loses increments there), and the
 * latency histogram's window is synchronized.
 */
public final class StageMetrics {
    private static final int HISTOGRAM_WINDOW = 1000;

    private final String stageName;
    private final Histogram latencyMs;
    private final Counter applied;
    private final Counter skipped;
    private final Counter failures;
    private final Counter timeouts;
    private final Counter llmCalls;
    private final Counter promptTokens;
    private final Counter cachedPromptTokens;
    private final Counter completionTokens;
    private final Counter retries;
    private final Counter journalHits;
    private final Counter journalMisses;
    private final Counter tokensSaved;
    private final Counter truncatedReplies;

    public StageMetrics(MetricGroup operatorGroup, String stageName) {
        this.stageName = stageName;
        MetricGroup group = operatorGroup.addGroup("flowsql").addGroup("stage", stageName);
        this.latencyMs = group.histogram("latencyMs", new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
        this.applied = counter(group, "applied");
        this.skipped = counter(group, "skipped");
        this.failures = counter(group, "failures");
        this.timeouts = counter(group, "timeouts");
        this.llmCalls = counter(group, "llmCalls");
        this.promptTokens = counter(group, "promptTokens");
        this.cachedPromptTokens = counter(group, "cachedPromptTokens");
        this.completionTokens = counter(group, "completionTokens");
        this.retries = counter(group, "retries");
        this.journalHits = counter(group, "journalHits");
        this.journalMisses = counter(group, "journalMisses");
        this.tokensSaved = counter(group, "tokensSaved");
        this.truncatedReplies = counter(group, "truncatedReplies");
    }

    private static Counter counter(MetricGroup group, String name) {
        return group.counter(name, new ThreadSafeSimpleCounter());
    }

    public void skipped() {
        skipped.inc();
    }

    public void timedOut() {
        timeouts.inc();
        failures.inc();
    }

    /** Records one finished application: wall time, and what the trace entries the stage added say it spent. */
    public void finished(RequestContext ctx, int traceSizeBefore, long elapsedMillis) {
        applied.inc();
        latencyMs.update(elapsedMillis);
        if (stageName.equals(ctx.failedStage)) {
            failures.inc();
        }
        for (int i = traceSizeBefore; i < ctx.trace.size(); i++) {
            StageTrace t = ctx.trace.get(i);
            llmCalls.inc(t.llmCalls);
            promptTokens.inc(t.promptTokens);
            cachedPromptTokens.inc(t.cachedPromptTokens);
            completionTokens.inc(t.completionTokens);
            retries.inc(t.retries);
            journalHits.inc(t.journalHits);
            journalMisses.inc(t.journalMisses);
            tokensSaved.inc(t.tokensSaved);
            truncatedReplies.inc(t.truncatedReplies);
        }
    }
}

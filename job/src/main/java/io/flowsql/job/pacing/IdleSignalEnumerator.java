package io.flowsql.job.pacing;

import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * Reads the topics' end offsets on the coordinator's worker thread every poll interval (each read bounded by the admin
 * client's timeout) and reports idle / busy to the checkpoint coordinator through the backlog signal when it changes.
 */
final class IdleSignalEnumerator implements SplitEnumerator<NoSplit, Boolean> {
    private static final Logger LOG = LoggerFactory.getLogger(IdleSignalEnumerator.class);

    private final SplitEnumeratorContext<NoSplit> context;
    private final Supplier<TopicEndOffsets> offsetsFactory;
    private final Duration pollInterval;
    private final IdleDetector detector;
    private TopicEndOffsets offsets;
    private String lastFailure;

    IdleSignalEnumerator(SplitEnumeratorContext<NoSplit> context, Supplier<TopicEndOffsets> offsetsFactory,
                         Duration pollInterval, Duration idleAfter) {
        this.context = context;
        this.offsetsFactory = offsetsFactory;
        this.pollInterval = pollInterval;
        this.detector = new IdleDetector(idleAfter.toNanos(), System.nanoTime());
    }

    @Override
    public void start() {
        offsets = offsetsFactory.get();
        context.callAsync(offsets::sum, this::observed, pollInterval.toMillis(), pollInterval.toMillis());
    }

    private void observed(OptionalLong total, Throwable error) {
        String failure = error != null ? error.getMessage() : total.isEmpty() ? "interrupted" : null;
        if (failure != null && !failure.equals(lastFailure)) {
            // logged once per kind of failure: an unreadable broker keeps the short interval (counted as busy)
            LOG.warn("idle signal: cannot read the end offsets of {}, so the job counts as busy: {}", offsets, failure);
        }
        lastFailure = failure;
        detector.observe(error == null ? total : OptionalLong.empty(), System.nanoTime()).ifPresent(idle -> {
            LOG.info("job {}: checkpoints at the {} interval", idle ? "idle" : "busy again", idle ? "idle" : "normal");
            context.setIsProcessingBacklog(idle);
        });
    }

    @Override
    public void handleSplitRequest(int subtaskId, String requesterHostname) {}

    @Override
    public void addSplitsBack(List<NoSplit> splits, int subtaskId) {}

    @Override
    public void addReader(int subtaskId) {}

    @Override
    public Boolean snapshotState(long checkpointId) {
        return Boolean.TRUE;
    }

    @Override
    public void close() {
        if (offsets != null) {
            offsets.close();
        }
    }
}

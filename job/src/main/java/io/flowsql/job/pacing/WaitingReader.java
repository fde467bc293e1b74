package io.flowsql.job.pacing;

import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.core.io.InputStatus;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The idle signal's reader: never has a record, never wakes its task (the future completes only at close). */
final class WaitingReader implements SourceReader<Void, NoSplit> {
    private final CompletableFuture<Void> closed = new CompletableFuture<>();

    @Override
    public void start() {}

    @Override
    public InputStatus pollNext(ReaderOutput<Void> output) {
        return InputStatus.NOTHING_AVAILABLE;
    }

    @Override
    public List<NoSplit> snapshotState(long checkpointId) {
        return List.of();
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return closed;
    }

    @Override
    public void addSplits(List<NoSplit> splits) {}

    @Override
    public void notifyNoMoreSplits() {}

    @Override
    public void close() {
        closed.complete(null);
    }
}

package io.flowsql.job.kafka;

import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/** Where a fresh job starts reading questions (kafka.starting-offsets); a restored job resumes from its checkpoint. */
public enum StartingOffsets {
    /** The group's committed offsets, else the earliest. */
    COMMITTED_OR_EARLIEST,
    EARLIEST,
    LATEST;

    /** The Kafka source's initializer for this choice. */
    public OffsetsInitializer initializer() {
        return switch (this) {
            case EARLIEST -> OffsetsInitializer.earliest();
            case LATEST -> OffsetsInitializer.latest();
            case COMMITTED_OR_EARLIEST -> OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST);
        };
    }
}

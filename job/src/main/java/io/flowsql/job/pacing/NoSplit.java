package io.flowsql.job.pacing;

import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/** The idle signal source has no splits and keeps no enumerator state; Flink still asks for their serializers. */
final class NoSplit implements SourceSplit {
    static final SimpleVersionedSerializer<NoSplit> SERIALIZER = new Empty<>(new NoSplit());
    static final SimpleVersionedSerializer<Boolean> NOTHING_TO_KEEP = new Empty<>(Boolean.TRUE);

    @Override
    public String splitId() {
        return "none";
    }

    /** Writes nothing; reads back the one value. */
    private record Empty<T>(T value) implements SimpleVersionedSerializer<T> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(T obj) {
            return new byte[0];
        }

        @Override
        public T deserialize(int version, byte[] serialized) {
            return value;
        }
    }
}

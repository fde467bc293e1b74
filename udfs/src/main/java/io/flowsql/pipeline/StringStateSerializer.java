package io.flowsql.pipeline;

import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

import java.io.IOException;

/**
 * Keys of keyed state (dialogue and request ids), in exactly the bytes of Flink's {@code StringSerializer}, written with
 * one call. Flink's writes a character at a time, and the heap backend's checkpoint stream is a
 * {@code DataOutputStream} whose {@code write(int)} is synchronized: writing the keys was most of a heap snapshot's CPU.
 * This one encodes into its own buffer first. The bytes being the same, state written by either is read by either
 * ({@link StringStateSerializerSnapshot}). It keeps a buffer, so {@link #duplicate()} makes a new one.
 */
public final class StringStateSerializer extends TypeSerializer<String> {
    private static final long serialVersionUID = 1L;

    private transient DataOutputSerializer buffer;

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public TypeSerializer<String> duplicate() {
        return new StringStateSerializer();
    }

    @Override
    public String createInstance() {
        return "";
    }

    @Override
    public String copy(String from) {
        return from;
    }

    @Override
    public String copy(String from, String reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(String record, DataOutputView target) throws IOException {
        if (buffer == null) {
            buffer = new DataOutputSerializer(64);
        }
        buffer.clear();
        StringValue.writeString(record, buffer);
        target.write(buffer.getSharedBuffer(), 0, buffer.length());
    }

    @Override
    public String deserialize(DataInputView source) throws IOException {
        return StringValue.readString(source);
    }

    @Override
    public String deserialize(String reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        StringValue.copyString(source, target);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof StringStateSerializer;
    }

    @Override
    public int hashCode() {
        return StringStateSerializer.class.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<String> snapshotConfiguration() {
        return new StringStateSerializerSnapshot();
    }
}

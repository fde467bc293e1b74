package io.flowsql.pipeline;

import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * Flink's serializer of a dialogue's history turns in keyed state, instead of the PojoSerializer: its length, then the
 * turn as the request context's wire format writes it ({@link ContextCodec#writeTurn}: a presence flag and five
 * strings, no per-field null flags, no reflection); 0 for null. The heap backend writes every kept turn at every
 * checkpoint, so the encoded bytes are kept with the turn ({@link DialogueTurn#wire}, set when first written or when
 * read) and later checkpoints copy them. A hand-written copy (sharing those bytes, which are never changed) and a
 * snapshot that stores only a version. State the PojoSerializer wrote (earlier releases) is read with it and written
 * again in this format ({@link DialogueTurnSerializerSnapshot}). Stateless, so one instance serves every thread.
 */
public final class DialogueTurnSerializer extends TypeSerializer<DialogueTurn> {
    private static final long serialVersionUID = 1L;

    public static final DialogueTurnSerializer INSTANCE = new DialogueTurnSerializer();

    private DialogueTurnSerializer() {}

    @Override
    public TypeSerializer<DialogueTurn> duplicate() {
        return this;
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public DialogueTurn createInstance() {
        return new DialogueTurn();
    }

    @Override
    public DialogueTurn copy(DialogueTurn from) {
        if (from == null) {
            return null;
        }
        DialogueTurn copy = new DialogueTurn(from.requestId, from.question, from.questionType, from.sql, from.summary);
        copy.wire = from.wire;
        return copy;
    }

    @Override
    public DialogueTurn copy(DialogueTurn from, DialogueTurn reuse) {
        return copy(from);
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(DialogueTurn record, DataOutputView target) throws IOException {
        if (record == null) {
            ContextWire.writeInt(target, 0);
            return;
        }
        byte[] bytes = record.wire;
        if (bytes == null) {
            DataOutputSerializer encoded = new DataOutputSerializer(64);
            ContextCodec.writeTurn(encoded, record);
            bytes = encoded.getCopyOfBuffer();
            record.wire = bytes;
        }
        ContextWire.writeInt(target, bytes.length);
        target.write(bytes);
    }

    @Override
    public DialogueTurn deserialize(DataInputView source) throws IOException {
        byte[] bytes = readBytes(source);
        if (bytes == null) {
            return null;
        }
        DialogueTurn turn = ContextCodec.readTurn(new DataInputDeserializer(bytes));
        turn.wire = bytes;
        return turn;
    }

    @Override
    public DialogueTurn deserialize(DialogueTurn reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        byte[] bytes = readBytes(source);
        ContextWire.writeInt(target, bytes == null ? 0 : bytes.length);
        if (bytes != null) {
            target.write(bytes);
        }
    }

    private static byte[] readBytes(DataInputView source) throws IOException {
        int length = ContextWire.readInt(source);
        if (length == 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        source.readFully(bytes);
        return bytes;
    }

    @Override
    public TypeSerializerSnapshot<DialogueTurn> snapshotConfiguration() {
        return new DialogueTurnSerializerSnapshot();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof DialogueTurnSerializer;
    }

    @Override
    public int hashCode() {
        return DialogueTurnSerializer.class.hashCode();
    }

    private Object readResolve() {
        return INSTANCE;
    }
}

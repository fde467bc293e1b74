package io.flowsql.pipeline;

import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.java.typeutils.runtime.PojoSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * What a checkpoint stores about {@link DialogueTurnSerializer}: the state format's version ({@link ContextCodec#VERSION},
 * shared with the request context's serializer) and nothing else. History written by the
 * PojoSerializer (state format 2 and before) is compatible after migration: Flink reads it with the restored
 * PojoSerializer and writes it again in this format.
 */
public final class DialogueTurnSerializerSnapshot implements TypeSerializerSnapshot<DialogueTurn> {

    @Override
    public int getCurrentVersion() {
        return ContextCodec.VERSION;
    }

    @Override
    public void writeSnapshot(DataOutputView out) {
        // the version Flink stores with the snapshot is the whole description
    }

    @Override
    public void readSnapshot(int readVersion, DataInputView in, ClassLoader userCodeClassLoader) throws IOException {
        if (readVersion < ContextCodec.TURN_SERIALIZER_SINCE || readVersion > ContextCodec.VERSION) {
            throw new IOException("dialogue turn format " + readVersion + " is not one this release reads ("
                    + ContextCodec.TURN_SERIALIZER_SINCE + ".." + ContextCodec.VERSION + ")");
        }
    }

    @Override
    public TypeSerializer<DialogueTurn> restoreSerializer() {
        return DialogueTurnSerializer.INSTANCE;
    }

    @Override
    public TypeSerializerSchemaCompatibility<DialogueTurn> resolveSchemaCompatibility(
            TypeSerializerSnapshot<DialogueTurn> oldSnapshot) {
        if (oldSnapshot instanceof DialogueTurnSerializerSnapshot) {
            return TypeSerializerSchemaCompatibility.compatibleAsIs();
        }
        if (oldSnapshot instanceof PojoSerializerSnapshot<DialogueTurn>) {
            return TypeSerializerSchemaCompatibility.compatibleAfterMigration();
        }
        return TypeSerializerSchemaCompatibility.incompatible();
    }
}

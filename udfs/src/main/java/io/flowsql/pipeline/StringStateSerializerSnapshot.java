package io.flowsql.pipeline;

import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * What a checkpoint stores about {@link StringStateSerializer}: a version and nothing else. State written by Flink's
 * {@code StringSerializer} has the same bytes, so it is compatible as is (no migration, with either state backend; a
 * key serializer must be, Flink does not migrate keys).
 */
public final class StringStateSerializerSnapshot implements TypeSerializerSnapshot<String> {
    private static final int VERSION = 1;

    @Override
    public int getCurrentVersion() {
        return VERSION;
    }

    @Override
    public void writeSnapshot(DataOutputView out) {
        // the version Flink stores with the snapshot is the whole description
    }

    @Override
    public void readSnapshot(int readVersion, DataInputView in, ClassLoader userCodeClassLoader) throws IOException {
        if (readVersion != VERSION) {
            throw new IOException("string state format " + readVersion + " is not one this release reads (" + VERSION + ")");
        }
    }

    @Override
    public TypeSerializer<String> restoreSerializer() {
        return new StringStateSerializer();
    }

    @Override
    public TypeSerializerSchemaCompatibility<String> resolveSchemaCompatibility(TypeSerializerSnapshot<String> oldSnapshot) {
        if (oldSnapshot instanceof StringStateSerializerSnapshot
                || oldSnapshot instanceof StringSerializer.StringSerializerSnapshot) {
            return TypeSerializerSchemaCompatibility.compatibleAsIs();
        }
        return TypeSerializerSchemaCompatibility.incompatible();
    }
}

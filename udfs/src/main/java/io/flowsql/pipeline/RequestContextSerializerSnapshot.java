package io.flowsql.pipeline;

import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.java.typeutils.runtime.PojoSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * What a checkpoint stores about {@link RequestContextSerializer}: its wire format's version and nothing else (Flink
 * writes the class name and the version). State written by the PojoSerializer before (savepoints of earlier releases)
 * is compatible after migration: Flink reads it with the restored PojoSerializer and writes it again in this format.
 */
public final class RequestContextSerializerSnapshot implements TypeSerializerSnapshot<RequestContext> {
    private int version = ContextCodec.VERSION;

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
        if (readVersion < ContextCodec.OLDEST || readVersion > ContextCodec.VERSION) {
            throw new IOException("request context format " + readVersion + " is not one this release reads ("
                    + ContextCodec.OLDEST + ".." + ContextCodec.VERSION + ")");
        }
        version = readVersion;
    }

    @Override
    public TypeSerializer<RequestContext> restoreSerializer() {
        return RequestContextSerializer.ofFormat(version);
    }

    @Override
    public TypeSerializerSchemaCompatibility<RequestContext> resolveSchemaCompatibility(
            TypeSerializerSnapshot<RequestContext> oldSnapshot) {
        if (oldSnapshot instanceof RequestContextSerializerSnapshot old) {
            return old.version >= ContextCodec.SAME_CONTEXT_BYTES_SINCE ? TypeSerializerSchemaCompatibility.compatibleAsIs()
                    : TypeSerializerSchemaCompatibility.compatibleAfterMigration();
        }
        if (oldSnapshot instanceof PojoSerializerSnapshot<RequestContext>) {
            return TypeSerializerSchemaCompatibility.compatibleAfterMigration();
        }
        return TypeSerializerSchemaCompatibility.incompatible();
    }
}

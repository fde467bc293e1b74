package io.flowsql.pipeline;

import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * Flink's serializer of the request context between operators, in the async operators' checkpointed queues and in
 * keyed state, instead of the PojoSerializer: the context in {@link ContextCodec}'s compact format, a hand-written deep
 * copy, and a snapshot that stores only a version (the PojoSerializer's stored every nested class's fields and
 * serializers, for every async operator at every checkpoint). Stateless, so one instance serves every thread.
 * {@link #INSTANCE} reads and writes the current format; a snapshot of an older format restores a serializer of that
 * format ({@link #ofFormat}), which reads state written before and is then migrated to the current one.
 */
public final class RequestContextSerializer extends TypeSerializer<RequestContext> {
    private static final long serialVersionUID = 1L;

    public static final RequestContextSerializer INSTANCE = new RequestContextSerializer(ContextCodec.VERSION);

    private final int format;

    private RequestContextSerializer(int format) {
        this.format = format;
    }

    /** The serializer of wire format {@code format} ({@link #INSTANCE} for the current one). */
    static RequestContextSerializer ofFormat(int format) {
        return format == ContextCodec.VERSION ? INSTANCE : new RequestContextSerializer(format);
    }

    @Override
    public TypeSerializer<RequestContext> duplicate() {
        return this;
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public RequestContext createInstance() {
        return new RequestContext();
    }

    @Override
    public RequestContext copy(RequestContext from) {
        return ContextCopy.of(from);
    }

    @Override
    public RequestContext copy(RequestContext from, RequestContext reuse) {
        return ContextCopy.of(from);
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(RequestContext record, DataOutputView target) throws IOException {
        ContextCodec.write(record, target, format);
    }

    @Override
    public RequestContext deserialize(DataInputView source) throws IOException {
        return ContextCodec.read(source, format);
    }

    @Override
    public RequestContext deserialize(RequestContext reuse, DataInputView source) throws IOException {
        return ContextCodec.read(source, format);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        ContextCodec.write(ContextCodec.read(source, format), target, format);
    }

    @Override
    public TypeSerializerSnapshot<RequestContext> snapshotConfiguration() {
        return new RequestContextSerializerSnapshot();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RequestContextSerializer s && s.format == format;
    }

    @Override
    public int hashCode() {
        return format;
    }

    private Object readResolve() {
        return ofFormat(format);
    }
}

package io.flowsql.pipeline;

import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * Flink's serializer of the request context between operators, in the async operators' checkpointed queues and in
 * keyed state, instead of the PojoSerializer: the context in {@link ContextCodec}'s compact format, a hand-written deep
 * copy, and a snapshot that stores only a version (the PojoSerializer's stored every nested class's fields and
 * serializers, for every async operator at every checkpoint). Stateless but for a buffer per writing thread, so one
 * instance serves every thread.
 * {@link #INSTANCE} reads and writes the current format; a snapshot of an older format restores a serializer of that
 * format ({@link #ofFormat}), which reads state written before and is then migrated to the current one.
 */
public final class RequestContextSerializer extends TypeSerializer<RequestContext> {
    private static final long serialVersionUID = 1L;

    public static final RequestContextSerializer INSTANCE = new RequestContextSerializer(ContextCodec.VERSION);

    /** A context is 8.8 kB on average (docs/MEASUREMENTS.md); a buffer grown past this is not kept. */
    private static final int MAX_KEPT_BUFFER = 256 * 1024;
    private static final ThreadLocal<DataOutputSerializer> BUFFER = ThreadLocal.withInitial(() -> new DataOutputSerializer(16 * 1024));

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

    /**
     * Into a buffer of the writing thread first, then to {@code target} in one call, unless {@code target} is itself a
     * buffer (records between operators). A checkpoint's target is a stream whose every small write passes through
     * {@code DataOutputStream} and the checkpoint stream's wrappers: written piece by piece, the async operators'
     * in-flight contexts were 74 of 121 checkpoint samples in a profile of the sustained run with the changelog on
     * (on the heap backend the kept keyed state dominates and no gain showed; docs/MEASUREMENTS.md, issue 41, stop
     * 56). The bytes are the same either way.
     */
    @Override
    public void serialize(RequestContext record, DataOutputView target) throws IOException {
        if (target instanceof DataOutputSerializer) {
            ContextCodec.write(record, target, format);
            return;
        }
        DataOutputSerializer buffer = BUFFER.get();
        buffer.clear();
        ContextCodec.write(record, buffer, format);
        target.write(buffer.getSharedBuffer(), 0, buffer.length());
        if (buffer.getSharedBuffer().length > MAX_KEPT_BUFFER) {
            BUFFER.remove();  // one outsized context does not keep its buffer on every thread that wrote one
        }
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

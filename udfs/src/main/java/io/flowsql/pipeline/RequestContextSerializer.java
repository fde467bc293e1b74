package io.flowsql.pipeline;

import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * Flink's serializer of the request context between operators, in the async operators' checkpointed queues and in
 * keyed state, instead of the PojoSerializer: the context in {@link ContextCodec}'s compact format, a hand-written deep
 * copy, and a snapshot that stores only a version (the PojoSerializer's stored every nested class's fields and
 * serializers, for every async operator at every checkpoint). Stateless, so one instance serves every thread.
 */
public final class RequestContextSerializer extends TypeSerializerSingleton<RequestContext> {
    private static final long serialVersionUID = 1L;

    public static final RequestContextSerializer INSTANCE = new RequestContextSerializer();

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
        ContextCodec.write(record, target);
    }

    @Override
    public RequestContext deserialize(DataInputView source) throws IOException {
        return ContextCodec.read(source);
    }

    @Override
    public RequestContext deserialize(RequestContext reuse, DataInputView source) throws IOException {
        return ContextCodec.read(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        ContextCodec.write(ContextCodec.read(source), target);
    }

    @Override
    public TypeSerializerSnapshot<RequestContext> snapshotConfiguration() {
        return new RequestContextSerializerSnapshot();
    }

    private Object readResolve() {
        return INSTANCE;
    }
}

package io.flowsql.pipeline;

import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

import java.lang.reflect.Type;
import java.util.Map;

/**
 * The request context's Flink type (named on the class by {@code @TypeInfo}, so every operator, async queue and state
 * descriptor gets it from {@code TypeInformation.of}): serialized by {@link RequestContextSerializer}.
 */
public final class RequestContextTypeInfo extends OwnSerializerTypeInfo<RequestContext> {
    private static final long serialVersionUID = 1L;

    /** Flink's hook from the {@code @TypeInfo} annotation. */
    public static final class Factory extends TypeInfoFactory<RequestContext> {
        @Override
        public TypeInformation<RequestContext> createTypeInfo(Type t, Map<String, TypeInformation<?>> genericParameters) {
            return new RequestContextTypeInfo();
        }
    }

    public RequestContextTypeInfo() {
        super(RequestContext.class, false);
    }

    @Override
    public TypeSerializer<RequestContext> createSerializer(SerializerConfig config) {
        return RequestContextSerializer.INSTANCE;
    }

    @Override
    public String toString() {
        return "RequestContext(compact format " + ContextCodec.VERSION + ")";
    }
}

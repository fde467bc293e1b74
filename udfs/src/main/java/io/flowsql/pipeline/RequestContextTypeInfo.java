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
public final class RequestContextTypeInfo extends TypeInformation<RequestContext> {
    private static final long serialVersionUID = 1L;

    /** Flink's hook from the {@code @TypeInfo} annotation. */
    public static final class Factory extends TypeInfoFactory<RequestContext> {
        @Override
        public TypeInformation<RequestContext> createTypeInfo(Type t, Map<String, TypeInformation<?>> genericParameters) {
            return new RequestContextTypeInfo();
        }
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<RequestContext> getTypeClass() {
        return RequestContext.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<RequestContext> createSerializer(SerializerConfig config) {
        return RequestContextSerializer.INSTANCE;
    }

    @Override
    public String toString() {
        return "RequestContext(compact format " + ContextCodec.VERSION + ")";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof RequestContextTypeInfo;
    }

    @Override
    public int hashCode() {
        return RequestContext.class.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof RequestContextTypeInfo;
    }
}

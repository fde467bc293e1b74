package io.flowsql.pipeline;

import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** The type of the job's string keys (every {@code keyBy}): a string, written to state by {@link StringStateSerializer}. */
public final class StateKeyType extends OwnSerializerTypeInfo<String> {
    private static final long serialVersionUID = 1L;

    public static final StateKeyType STRING = new StateKeyType();

    private StateKeyType() {
        super(String.class, true);
    }

    @Override
    public TypeSerializer<String> createSerializer(SerializerConfig config) {
        return new StringStateSerializer();
    }

    @Override
    public String toString() {
        return "String (state keys)";
    }
}

package io.flowsql.events;

import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;

/** Flink's type for a {@code List<List<String>>} field (rows of text cells): lists of lists, never Kryo (the job disables generic types). */
public final class StringRowsTypeInfo extends TypeInfoFactory<List<List<String>>> {
    @Override
    public TypeInformation<List<List<String>>> createTypeInfo(Type type, Map<String, TypeInformation<?>> genericParameters) {
        return Types.LIST(Types.LIST(Types.STRING));
    }
}

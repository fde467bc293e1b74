package io.flowsql.pipeline;

import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * A Flink type that is one value written by a serializer of ours: what every such type answers alike (one field, no
 * tuple; equal to the instances of its own class). Subclasses say which serializer and how they print.
 */
abstract class OwnSerializerTypeInfo<T> extends TypeInformation<T> {
    private static final long serialVersionUID = 1L;

    private final Class<T> typeClass;
    private final boolean keyType;

    OwnSerializerTypeInfo(Class<T> typeClass, boolean keyType) {
        this.typeClass = typeClass;
        this.keyType = keyType;
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
    public Class<T> getTypeClass() {
        return typeClass;
    }

    @Override
    public boolean isKeyType() {
        return keyType;
    }

    @Override
    public boolean equals(Object obj) {
        return obj != null && obj.getClass() == getClass();
    }

    @Override
    public int hashCode() {
        return getClass().hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj != null && obj.getClass() == getClass();
    }
}

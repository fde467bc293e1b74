package io.flowsql.job;

import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.java.typeutils.runtime.PojoSerializer;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.memory.DataInputViewStreamWrapper;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.apache.flink.runtime.checkpoint.OperatorState;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.state.KeyGroupsStateHandle;
import org.apache.flink.runtime.state.KeyedBackendSerializationProxy;
import org.apache.flink.runtime.state.KeyedStateHandle;
import org.apache.flink.runtime.state.metainfo.StateMetaInfoSnapshot;
import org.apache.flink.shaded.guava33.com.google.common.hash.Hashing;

import java.io.DataInputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What a savepoint says about the classes that wrote it: the serializer snapshot Flink stored for one keyed state of
 * one operator, and the fields of a POJO as that snapshot knows them, so a test can show which fields a state class
 * gained since the savepoint was written.
 */
final class SavepointSchemas {
    private SavepointSchemas() {}

    /** The value serializer snapshot of keyed state {@code state} of the operator with {@code uid}, as the savepoint stored it. */
    static TypeSerializerSnapshot<?> keyedValueSnapshot(Path savepoint, String uid, String state) throws Exception {
        ClassLoader loader = SavepointSchemas.class.getClassLoader();
        CheckpointMetadata metadata;
        try (DataInputStream in = new DataInputStream(Files.newInputStream(savepoint.resolve("_metadata")))) {
            metadata = Checkpoints.loadCheckpointMetadata(in, loader, savepoint.toUri().toString());
        }
        OperatorID id = new OperatorID(Hashing.murmur3_128(0).hashString(uid, StandardCharsets.UTF_8).asBytes());
        for (OperatorState operator : metadata.getOperatorStates()) {
            if (!operator.getOperatorID().equals(id)) {
                continue;
            }
            for (OperatorSubtaskState subtask : operator.getStates()) {
                for (KeyedStateHandle handle : subtask.getManagedKeyedState()) {
                    if (handle instanceof KeyGroupsStateHandle keyGroups) {
                        try (FSDataInputStream stream = keyGroups.openInputStream()) {
                            KeyedBackendSerializationProxy<?> proxy = new KeyedBackendSerializationProxy<>(loader);
                            proxy.read(new DataInputViewStreamWrapper(stream));
                            for (StateMetaInfoSnapshot info : proxy.getStateMetaInfoSnapshots()) {
                                if (info.getName().equals(state)) {
                                    return info.getTypeSerializerSnapshot(
                                            StateMetaInfoSnapshot.CommonSerializerKeys.VALUE_SERIALIZER);
                                }
                            }
                        }
                    }
                }
            }
        }
        throw new IllegalArgumentException("no keyed state '" + state + "' of operator " + uid + " in " + savepoint);
    }

    /** The field names of a POJO serializer (the one a snapshot restores, or today's). */
    static Set<String> pojoFields(TypeSerializer<?> serializer) throws Exception {
        Method fields = PojoSerializer.class.getDeclaredMethod("getFields");
        fields.setAccessible(true);
        return Arrays.stream((Field[]) fields.invoke(serializer)).map(Field::getName)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The fields a class serializes today (neither static nor transient). */
    static Set<String> classFields(Class<?> type) {
        return Arrays.stream(type.getDeclaredFields())
                .filter(f -> !Modifier.isStatic(f.getModifiers()) && !Modifier.isTransient(f.getModifiers()))
                .map(Field::getName).collect(Collectors.toCollection(TreeSet::new));
    }

    /** Today's serializer of {@code type}, as the job creates it (RequestContext's own, a POJO serializer for the other state classes). */
    static <T> TypeSerializer<T> today(Class<T> type) {
        return TypeInformation.of(type).createSerializer(new SerializerConfigImpl());
    }
}

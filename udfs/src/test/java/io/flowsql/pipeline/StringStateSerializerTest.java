package io.flowsql.pipeline;

import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.api.common.typeutils.base.StringValueSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/** The state keys' serializer writes Flink's string bytes, so state written by either is read by the other as is. */
class StringStateSerializerTest {
    private static final String[] KEYS = {"", "d1", "opensearch-s64-sustained-d123", "Müller-ﬁ-数据-\uD83D\uDE00",
            "x".repeat(300)};

    private static byte[] bytes(TypeSerializer<String> serializer, String s) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(16);
        serializer.serialize(s, out);
        return out.getCopyOfBuffer();
    }

    @Test
    void writesTheBytesOfFlinksStringSerializerAndReadsThemBack() throws IOException {
        StringStateSerializer ours = new StringStateSerializer();
        for (String key : KEYS) {
            byte[] written = bytes(ours, key);
            assertThat(written).isEqualTo(bytes(StringSerializer.INSTANCE, key));
            assertThat(ours.deserialize(new DataInputDeserializer(written))).isEqualTo(key);
            assertThat(StringSerializer.INSTANCE.deserialize(new DataInputDeserializer(written))).isEqualTo(key);
        }
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void stateWrittenByFlinksStringSerializerIsCompatibleAsIsAndOtherSerializersAreNot() {
        var snapshot = new StringStateSerializer().snapshotConfiguration();
        assertThat(snapshot.resolveSchemaCompatibility(StringSerializer.INSTANCE.snapshotConfiguration()).isCompatibleAsIs())
                .isTrue();
        assertThat(snapshot.resolveSchemaCompatibility(new StringStateSerializerSnapshot()).isCompatibleAsIs()).isTrue();
        TypeSerializerSnapshot other = StringValueSerializer.INSTANCE.snapshotConfiguration();
        assertThat(snapshot.resolveSchemaCompatibility(other).isIncompatible()).isTrue();
    }
}

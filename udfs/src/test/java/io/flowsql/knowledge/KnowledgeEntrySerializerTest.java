package io.flowsql.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/** Knowledge entries live in broadcast state: Flink must serialize them as a POJO (no Kryo), and read back what it wrote. */
class KnowledgeEntrySerializerTest {

    @Test
    void anEntryIsAPojoThatRoundTrips() throws Exception {
        TypeInformation<KnowledgeEntry> type = TypeInformation.of(KnowledgeEntry.class);
        assertThat(type).isInstanceOf(PojoTypeInfo.class);
        SerializerConfigImpl config = new SerializerConfigImpl();
        config.setGenericTypes(false);
        TypeSerializer<KnowledgeEntry> serializer = type.createSerializer(config);
        KnowledgeEntry entry = KnowledgeEntry.add("k1", "shop", "active customer", "an order in the last 90 days", 42);
        entry.tenant = "acme";
        entry.schema = "sales";
        DataOutputSerializer out = new DataOutputSerializer(256);
        serializer.serialize(entry, out);
        KnowledgeEntry back = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
        assertThat(back).isEqualTo(entry);
        assertThat(back.tenant).isEqualTo("acme");
    }
}

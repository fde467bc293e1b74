package io.flowsql.pipeline;

import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.java.typeutils.runtime.PojoSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dialogue history's serializer in keyed state: turns (with nulls and non-ASCII text) come back equal, copies share
 * nothing, its snapshot is a version only, a PojoSerializer history (state format 2 and before) is migrated, and it
 * writes fewer bytes than the PojoSerializer did (bytes per turn and µs per turn of both are printed).
 */
class DialogueTurnSerializerTest {
    private static final DialogueTurnSerializer SERIALIZER = DialogueTurnSerializer.INSTANCE;

    /** A turn as the benchmark's questions leave them: an answered question with its SQL and result summary. */
    static DialogueTurn typicalTurn(int i) {
        return new DialogueTurn("opensearch-s64-sustained-" + i, "What are the names of the singers who performed in "
                + "concerts in 2014, ordered by age?", "answerable",
                "SELECT T2.name FROM singer_in_concert AS T1 JOIN singer AS T2 ON T1.singer_id = T2.singer_id JOIN concert "
                        + "AS T3 ON T1.concert_id = T3.concert_id WHERE T3.year = 2014 ORDER BY T2.age",
                "answered, 3 rows: Joe Sharp | Timbaland | Justin Brown");
    }

    private static <T> byte[] bytes(TypeSerializer<T> serializer, T value) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        serializer.serialize(value, out);
        return out.getCopyOfBuffer();
    }

    private static DialogueTurn back(byte[] bytes) throws IOException {
        return SERIALIZER.deserialize(new DataInputDeserializer(bytes));
    }

    @Test
    void turnsWithNullsAndNonAsciiTextRoundTrip() throws Exception {
        DialogueTurn t = typicalTurn(7);
        assertThat(back(bytes(SERIALIZER, t))).usingRecursiveComparison().ignoringFields("wire").isEqualTo(t);
        DialogueTurn sparse = new DialogueTurn("r1", "Combien de chanteurs à Zürich ? 歌手は何人", null, null, "");
        assertThat(back(bytes(SERIALIZER, sparse))).usingRecursiveComparison().ignoringFields("wire").isEqualTo(sparse);
        assertThat(back(bytes(SERIALIZER, null))).isNull();
        // the byte-level copy (used by Flink when it moves serialized state) writes the same bytes
        DataOutputSerializer copied = new DataOutputSerializer(64);
        SERIALIZER.copy(new DataInputDeserializer(bytes(SERIALIZER, sparse)), copied);
        assertThat(copied.getCopyOfBuffer()).isEqualTo(bytes(SERIALIZER, sparse));
    }

    @Test
    void aCopyIsEqualButNotTheSameObject() {
        DialogueTurn t = typicalTurn(1);
        DialogueTurn copy = SERIALIZER.copy(t);
        assertThat(copy).isNotSameAs(t).usingRecursiveComparison().ignoringFields("wire").isEqualTo(t);
        copy.summary = "changed";
        assertThat(t.summary).startsWith("answered");
        assertThat(SERIALIZER.copy((DialogueTurn) null)).isNull();
    }

    @Test
    void theSnapshotIsAVersionAndMigratesAHistoryThePojoSerializerWrote() throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(128);
        TypeSerializerSnapshot.writeVersionedSnapshot(out, SERIALIZER.snapshotConfiguration());
        byte[] stored = out.getCopyOfBuffer();
        assertThat(stored.length).as("class name and version").isLessThan(80);
        TypeSerializerSnapshot<DialogueTurn> back = TypeSerializerSnapshot.readVersionedSnapshot(
                new DataInputDeserializer(stored), getClass().getClassLoader());
        assertThat(back.restoreSerializer()).isSameAs(SERIALIZER);
        assertThat(SERIALIZER.snapshotConfiguration().resolveSchemaCompatibility(back).isCompatibleAsIs()).isTrue();

        TypeSerializer<DialogueTurn> pojo = pojoSerializer();
        assertThat(SERIALIZER.snapshotConfiguration().resolveSchemaCompatibility(pojo.snapshotConfiguration())
                .isCompatibleAfterMigration()).isTrue();
        // what migration does: read with the restored PojoSerializer, write with this one
        DialogueTurn t = typicalTurn(3);
        DialogueTurn readByPojo = pojo.deserialize(new DataInputDeserializer(bytes(pojo, t)));
        assertThat(back(bytes(SERIALIZER, readByPojo))).usingRecursiveComparison().ignoringFields("wire").isEqualTo(t);
    }

    @Test
    void aTurnTakesFewerBytesAndLessTimeThanThePojoSerializersAndBothArePrinted() throws Exception {
        TypeSerializer<DialogueTurn> pojo = pojoSerializer();
        assertThat(pojo).isInstanceOf(PojoSerializer.class);
        DialogueTurn t = typicalTurn(123);
        int compactBytes = bytes(SERIALIZER, t).length;
        int pojoBytes = bytes(pojo, t).length;
        int text = t.requestId.length() + t.question.length() + t.questionType.length() + t.sql.length() + t.summary.length();
        double[] compactMicros = microsPerTurn(SERIALIZER, t);
        double[] pojoMicros = microsPerTurn(pojo, t);
        double firstWrite = microsPerFirstWrite(t);
        System.out.printf(Locale.ROOT, "dialogue turn of %d characters: PojoSerializer %d bytes, serialize %.2f µs, "
                        + "deserialize %.2f µs; DialogueTurnSerializer %d bytes, serialize %.2f µs (its first write, "
                        + "encoding the text: %.2f µs), deserialize %.2f µs%n", text, pojoBytes, pojoMicros[0],
                pojoMicros[1], compactBytes, compactMicros[0], firstWrite, compactMicros[1]);
        // Pojo: a header byte and a null flag per field; here a length (2 bytes), a presence flag, 5 string lengths
        assertThat(compactBytes).isLessThan(pojoBytes).isLessThanOrEqualTo(text + 2 + 1 + 2 * 5);
        // a checkpoint after the first copies the kept bytes: well under the PojoSerializer's reflective encoding
        assertThat(compactMicros[0]).isLessThan(pojoMicros[0] / 2);
    }

    @Test
    void theEncodedTurnIsKeptAndSharedByCopiesAndAReadTurnWritesTheBytesItWasReadFrom() throws Exception {
        DialogueTurn t = typicalTurn(5);
        byte[] first = bytes(SERIALIZER, t);
        assertThat(t.wire).isNotNull();
        assertThat(SERIALIZER.copy(t).wire).isSameAs(t.wire);
        assertThat(bytes(SERIALIZER, t)).isEqualTo(first);
        DialogueTurn read = back(first);
        assertThat(read.wire).isNotNull();
        assertThat(bytes(SERIALIZER, read)).isEqualTo(first);
        // the kept bytes decode to the same turn as a fresh encoding of its fields
        DialogueTurn fresh = new DialogueTurn(t.requestId, t.question, t.questionType, t.sql, t.summary);
        assertThat(bytes(SERIALIZER, fresh)).isEqualTo(first);
    }

    /** µs to write a turn not written before (encoding its text), the best of five rounds after a warm-up. */
    private static double microsPerFirstWrite(DialogueTurn t) throws IOException {
        int n = 20_000;
        double best = Double.MAX_VALUE;
        DataOutputSerializer out = new DataOutputSerializer(512 * n);
        for (int round = 0; round < 6; round++) {
            DialogueTurn[] turns = new DialogueTurn[n];
            for (int i = 0; i < n; i++) {
                turns[i] = new DialogueTurn(t.requestId, t.question, t.questionType, t.sql, t.summary);
            }
            out.clear();
            long start = System.nanoTime();
            for (DialogueTurn turn : turns) {
                SERIALIZER.serialize(turn, out);
            }
            if (round > 0) {
                best = Math.min(best, (System.nanoTime() - start) / 1e3 / n);
            }
        }
        return best;
    }

    private static TypeSerializer<DialogueTurn> pojoSerializer() {
        return TypeInformation.of(DialogueTurn.class).createSerializer(new SerializerConfigImpl());
    }

    /** {serialize, deserialize} µs per turn, the best of five rounds after a warm-up (JIT). */
    private static double[] microsPerTurn(TypeSerializer<DialogueTurn> serializer, DialogueTurn t) throws IOException {
        int n = 20_000;
        double bestWrite = Double.MAX_VALUE;
        double bestRead = Double.MAX_VALUE;
        DataOutputSerializer out = new DataOutputSerializer(512 * n);
        for (int round = 0; round < 6; round++) {
            out.clear();
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                serializer.serialize(t, out);
            }
            long written = System.nanoTime();
            DataInputDeserializer in = new DataInputDeserializer(out.getSharedBuffer(), 0, out.length());
            int read = 0;
            for (int i = 0; i < n; i++) {
                read += serializer.deserialize(in).sql.length();
            }
            long end = System.nanoTime();
            assertThat(read).isEqualTo(n * t.sql.length());
            if (round > 0) {
                bestWrite = Math.min(bestWrite, (written - start) / 1e3 / n);
                bestRead = Math.min(bestRead, (end - written) / 1e3 / n);
            }
        }
        return new double[] {bestWrite, bestRead};
    }
}

package io.flowsql.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.types.StringValue;
import org.junit.jupiter.api.Test;

/** A context's strings are written as Flink's StringValue writes them, byte for byte, whatever the chars. */
class ContextWireTest {
    /** ASCII, '?', Latin-1 above 0x7F, other BMP chars, surrogate pairs, lone surrogates. */
    private static final String[] PIECES = {"a", "SELECT name FROM singer", "?", "??", "\u00E9", "\u00FF", "\u0080", "\u0100",
        "\u4E2D", "\uD83D\uDE00", "\uD83D", "\uDE00", "\n", "\u0000", "\u007F"};

    @Test
    void stringsAreWrittenAsStringValueWritesThem() throws IOException {
        Random random = new Random(57);
        List<String> strings = new ArrayList<>();
        strings.add(null);
        strings.add("");
        strings.add("x".repeat(127));
        strings.add("x".repeat(128)); // the length + 1 takes two bytes
        strings.add("y".repeat(16_384)); // three
        strings.add("?".repeat(300) + "\u00E9");
        for (int i = 0; i < 20_000; i++) {
            StringBuilder s = new StringBuilder();
            int pieces = random.nextInt(12);
            for (int p = 0; p < pieces; p++) {
                s.append(random.nextInt(3) == 0 ? PIECES[random.nextInt(PIECES.length)] : PIECES[random.nextInt(3)]);
            }
            strings.add(s.toString());
        }
        int ascii = 0;
        for (String s : strings) {
            DataOutputSerializer ours = new DataOutputSerializer(64);
            ContextWire.writeString(ours, s);
            DataOutputSerializer flinks = new DataOutputSerializer(64);
            StringValue.writeString(s, flinks);
            assertThat(ours.getCopyOfBuffer()).as("%s", s == null ? "null" : s.chars().boxed().toList())
                    .isEqualTo(flinks.getCopyOfBuffer());
            assertThat(ContextWire.readString(new DataInputDeserializer(ours.getCopyOfBuffer()))).isEqualTo(s);
            ascii += s != null && s.chars().allMatch(c -> c < 0x80) ? 1 : 0;
        }
        assertThat(ascii).as("both paths are taken").isBetween(2_000, strings.size() - 2_000);
    }
}

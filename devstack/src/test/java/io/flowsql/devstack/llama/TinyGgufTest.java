package io.flowsql.devstack.llama;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TinyGgufTest {
    private static final String CORPUS = "SELECT Name FROM singer WHERE Country = 'France' ORDER BY Age DESC LIMIT 1";

    @Test
    void writesAGgufV3HeaderAndIsDeterministic(@TempDir Path dir) throws Exception {
        Path first = TinyGguf.write(dir.resolve("a.gguf"), CORPUS, 50, 42L);
        Path second = TinyGguf.write(dir.resolve("b.gguf"), CORPUS, 50, 42L);
        ByteBuffer header = ByteBuffer.wrap(Files.readAllBytes(first)).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(new String(new byte[] {header.get(), header.get(), header.get(), header.get()})).isEqualTo("GGUF");
        assertThat(header.getInt()).as("version").isEqualTo(3);
        assertThat(header.getLong()).as("tensors: embeddings, output, norm + 9 per layer").isEqualTo(3 + 2 * 9);
        assertThat(header.getLong()).as("metadata entries").isEqualTo(18);
        assertThat(Files.size(first) % 32).as("padded to the alignment").isZero();
        assertThat(Files.readAllBytes(first)).isEqualTo(Files.readAllBytes(second));
        int vocabulary = TinyGguf.vocabularySize(CORPUS, 50);
        assertThat(vocabulary).as("specials, 256 bytes, characters, words and prefixes").isBetween(5 + 256 + 190, 1000);
        System.out.println("tiny vocabulary of the test corpus: " + vocabulary + " pieces");
    }
}

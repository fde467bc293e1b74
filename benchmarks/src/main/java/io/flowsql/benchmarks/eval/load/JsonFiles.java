package io.flowsql.benchmarks.eval.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads benchmark JSON files with one mapper and a message that names the file when it is missing or broken. */
final class JsonFiles {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonFiles() {}

    static JsonNode read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("benchmark file not found: " + file);
        }
        try {
            return MAPPER.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? "" : v.asText();
    }
}

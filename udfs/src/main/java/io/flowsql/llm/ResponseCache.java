package io.flowsql.llm;

import io.flowsql.config.llm.EmbeddingEncoding;
import io.flowsql.config.llm.StructuredOutput;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Responses on disk, one JSON file per request hash under a two-letter fan-out directory; files are
 * written to a temporary name and moved into place, so concurrent writers and readers (threads or
 * processes) never see half a file.
 */
public final class ResponseCache {
    private final Path directory;
    private final ObjectMapper json = new ObjectMapper();
    private final ChatWireEncoder encoder = new ChatWireEncoder(json, StructuredOutput.JSON_SCHEMA);
    private final EmbeddingWire embeddings = new EmbeddingWire(json, EmbeddingEncoding.FLOAT);

    public ResponseCache(Path directory) {
        this.directory = directory;
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create cache directory " + directory, e);
        }
    }

    /**
     * The key: SHA-256 of the wire body of the request with its model resolved (model, messages,
     * temperature, top_p, n, max_tokens, seed, stop, response format). The stage is not part of it.
     */
    public String keyOf(ChatRequest resolved) {
        return sha256(encoder.toJson(resolved));
    }

    /** The key of an embeddings request with its model resolved: SHA-256 of its wire body (model and texts). */
    public String keyOf(EmbeddingRequest resolved) {
        return sha256(embeddings.toJson(resolved));
    }

    private String sha256(ObjectNode body) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(sha.digest(json.writeValueAsString(body).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    Optional<CachedAnswer> get(String key) {
        try {
            return Optional.of(json.readValue(fileOf(key).toFile(), CachedAnswer.class));
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable cache entry " + fileOf(key), e);
        }
    }

    void put(String key, CachedAnswer answer) {
        Path target = fileOf(key);
        try {
            Files.createDirectories(target.getParent());
            Path temp = Files.createTempFile(target.getParent(), key, ".tmp");
            json.writeValue(temp.toFile(), answer);
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write cache entry " + target, e);
        }
    }

    public Path directory() {
        return directory;
    }

    private Path fileOf(String key) {
        return directory.resolve(key.substring(0, 2)).resolve(key + ".json");
    }
}

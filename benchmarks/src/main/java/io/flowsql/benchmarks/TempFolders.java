package io.flowsql.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The benchmarks' temporary folders. */
public final class TempFolders {
    private TempFolders() {}

    /** Deletes {@code dir} and everything in it, as far as it can: a temporary folder, the next run makes its own. */
    public static void deleteQuietly(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException e) {
            // left behind; nothing reads it again
        }
    }
}

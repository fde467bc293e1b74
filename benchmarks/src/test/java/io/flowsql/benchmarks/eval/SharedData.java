package io.flowsql.benchmarks.eval;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the benchmark data lives for tests: the {@code flowsql.shared.data} property the parent pom sets; fails loudly when missing. */
public final class SharedData {
    private SharedData() {}

    public static Path root() {
        String dir = System.getProperty("flowsql.shared.data");
        if (dir == null) {
            throw new IllegalStateException("system property flowsql.shared.data is not set (run through Maven)");
        }
        Path root = Path.of(dir).toAbsolutePath().normalize();
        if (!Files.isDirectory(root.resolve("spider"))) {
            throw new IllegalStateException("no benchmark data under " + root);
        }
        return root;
    }
}

package io.flowsql.benchmarks.eval.load;

import java.nio.file.Path;
import java.util.Locale;

/** Picks the loader for a benchmark name given on the command line, resolving the standard paths under a data folder. */
public final class BenchmarkLoaders {
    /** The benchmarks {@link #load} knows, as the CLI's help names them. */
    public static final String KINDS = "spider-dev, bird-dev, bird-minidev, cosql-dev, mmsql-test";

    private final Path dataRoot;

    public BenchmarkLoaders(Path dataRoot) {
        this.dataRoot = dataRoot;
    }

    /**
     * @param kind  spider-dev, bird-dev, bird-minidev, cosql-dev or mmsql-test
     * @param path  folder or file overriding the default location under the data root (may be null)
     */
    public Benchmark load(String kind, Path path) {
        return switch (kind.toLowerCase(Locale.ROOT)) {
            case "spider-dev" -> new SpiderLoader(new SpiderHardness()).load(orDefault(path, "spider"), "dev.json");
            case "bird-dev" -> new BirdLoader().load(orDefault(path, "bird"));
            case "bird-minidev" -> new BirdLoader().load(orDefault(path, "bird-minidev").resolve("mini_dev_sqlite.json"),
                    orDefault(path, "bird-minidev").resolve("dev_databases"), "bird-minidev");
            case "cosql-dev" -> new CosqlLoader().load(questionsFile(kind, path), dataRoot.resolve("spider").resolve("database"));
            case "mmsql-test" -> new CosqlLoader().load(questionsFile(kind, path), dataRoot.resolve("spider").resolve("database"),
                    "mmsql-test");
            default -> throw new IllegalArgumentException(
                    "unknown benchmark '" + kind + "' (" + KINDS + ")");
        };
    }

    /** The file holding the benchmark's questions and gold SQL (what the simulator's oracle answers from). */
    public Path questionsFile(String kind, Path path) {
        return switch (kind.toLowerCase(Locale.ROOT)) {
            case "spider-dev" -> orDefault(path, "spider").resolve("dev.json");
            case "bird-dev" -> orDefault(path, "bird").resolve("dev.json");
            case "bird-minidev" -> orDefault(path, "bird-minidev").resolve("mini_dev_sqlite.json");
            case "cosql-dev" -> fileOrDefault(path, "cosql", "cosql_dev.json");
            case "mmsql-test" -> fileOrDefault(path, "mmsql", "MMSQL_test.json");
            default -> throw new IllegalArgumentException(
                    "unknown benchmark '" + kind + "' (" + KINDS + ")");
        };
    }

    /** A dialogue benchmark's file: {@code path} itself when it is a file, else the standard file in it or under the data root. */
    private Path fileOrDefault(Path path, String folder, String file) {
        if (path != null && java.nio.file.Files.isRegularFile(path)) {
            return path;
        }
        return orDefault(path, folder).resolve(file);
    }

    private Path orDefault(Path path, String folder) {
        return path != null ? path : dataRoot.resolve(folder);
    }
}

package io.flowsql.benchmarks.eval.load;

import java.nio.file.Path;
import java.util.Locale;

/** Picks the loader for a benchmark name given on the command line, resolving the standard paths under a data folder. */
public final class BenchmarkLoaders {
    private final Path dataRoot;

    public BenchmarkLoaders(Path dataRoot) {
        this.dataRoot = dataRoot;
    }

    /**
     * @param kind  spider-dev, bird-dev, bird-minidev or cosql-dev
     * @param path  folder or file overriding the default location under the data root (may be null)
     */
    public Benchmark load(String kind, Path path) {
        return switch (kind.toLowerCase(Locale.ROOT)) {
            case "spider-dev" -> new SpiderLoader(new SpiderHardness()).load(orDefault(path, "spider"), "dev.json");
            case "bird-dev" -> new BirdLoader().load(orDefault(path, "bird"));
            case "bird-minidev" -> new BirdLoader().load(orDefault(path, "bird-minidev").resolve("mini_dev_sqlite.json"),
                    orDefault(path, "bird-minidev").resolve("dev_databases"), "bird-minidev");
            case "cosql-dev" -> new CosqlLoader().load(orDefault(path, "cosql").resolve("cosql_dev.json"),
                    dataRoot.resolve("spider").resolve("database"));
            default -> throw new IllegalArgumentException(
                    "unknown benchmark '" + kind + "' (spider-dev, bird-dev, bird-minidev, cosql-dev)");
        };
    }

    /** The file holding the benchmark's questions and gold SQL (what the simulator's oracle answers from). */
    public Path questionsFile(String kind, Path path) {
        return switch (kind.toLowerCase(Locale.ROOT)) {
            case "spider-dev" -> orDefault(path, "spider").resolve("dev.json");
            case "bird-dev" -> orDefault(path, "bird").resolve("dev.json");
            case "bird-minidev" -> orDefault(path, "bird-minidev").resolve("mini_dev_sqlite.json");
            case "cosql-dev" -> orDefault(path, "cosql").resolve("cosql_dev.json");
            default -> throw new IllegalArgumentException(
                    "unknown benchmark '" + kind + "' (spider-dev, bird-dev, bird-minidev, cosql-dev)");
        };
    }

    private Path orDefault(Path path, String folder) {
        return path != null ? path : dataRoot.resolve(folder);
    }
}

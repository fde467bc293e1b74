package io.flowsql.benchmarks.eval.load;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A loaded benchmark: its questions in file order and the folder holding {@code <db>/<db>.sqlite},
 * so scoring can tell which questions can run here at all.
 */
public record Benchmark(String name, List<BenchmarkItem> items, Path databaseRoot) {

    public Benchmark {
        items = List.copyOf(items);
    }

    /** The SQLite file of a database, whether or not it exists. */
    public Path databaseFile(String dbId) {
        return databaseRoot.resolve(dbId).resolve(dbId + ".sqlite");
    }

    public boolean hasDatabase(String dbId) {
        return databaseRoot != null && Files.isRegularFile(databaseFile(dbId));
    }

    /** The questions whose database exists here. */
    public List<BenchmarkItem> runnableItems() {
        return items.stream().filter(i -> hasDatabase(i.dbId())).toList();
    }

    public Benchmark withItems(List<BenchmarkItem> subset) {
        return new Benchmark(name, subset, databaseRoot);
    }
}

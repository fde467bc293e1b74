package io.flowsql.job;

import io.flowsql.sql.catalog.DatabaseLocator;

import java.nio.file.Path;
import java.util.List;

/** Resolves where the job's SQLite databases live from the data.* options. */
public final class JobDatabases {
    private JobDatabases() {}

    public static DatabaseLocator locator(JobConfig config) {
        List<String> roots = config.get(JobOptions.DATABASE_ROOTS);
        if (roots.isEmpty()) {
            return DatabaseLocator.forSharedData(Path.of(config.get(JobOptions.SHARED_DATA)));
        }
        return new DatabaseLocator(paths(roots), paths(config.get(JobOptions.TABLES_JSON)));
    }

    private static List<Path> paths(List<String> items) {
        return items.stream().map(Path::of).toList();
    }
}

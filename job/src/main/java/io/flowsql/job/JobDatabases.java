package io.flowsql.job;

import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.registry.DatabaseRegistry;

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

    /** The SQLite folders and the databases declared by id ({@code databases.<id>.*}). */
    public static DatabaseRegistry registry(JobConfig config) {
        return DatabaseRegistry.fromSettings(locator(config), config.get(JobOptions.DATABASES));
    }

    /** The ids declared by {@code databases.<id>.*}. */
    public static java.util.Set<String> declaredIds(JobConfig config) {
        return registry(config).declared().stream().map(io.flowsql.sql.registry.DatabaseDeclaration::id)
                .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
    }

    private static List<Path> paths(List<String> items) {
        return items.stream().map(Path::of).toList();
    }
}

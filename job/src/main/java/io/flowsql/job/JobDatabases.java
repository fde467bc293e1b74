package io.flowsql.job;

import io.flowsql.rooms.SqlRooms;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.registry.DatabaseRegistry;

import java.util.Set;

/** The job's databases as the databases room reads them ({@link SqlRooms}): the data.* and databases.* options. */
public final class JobDatabases {
    private JobDatabases() {}

    public static DatabaseLocator locator(JobConfig config) {
        return SqlRooms.locator(config.settings());
    }

    /** The SQLite folders and the databases declared by id ({@code databases.<id>.*}). */
    public static DatabaseRegistry registry(JobConfig config) {
        return SqlRooms.registry(config.settings());
    }

    /** The ids declared by {@code databases.<id>.*}. */
    public static Set<String> declaredIds(JobConfig config) {
        return SqlRooms.declaredIds(config.settings());
    }
}

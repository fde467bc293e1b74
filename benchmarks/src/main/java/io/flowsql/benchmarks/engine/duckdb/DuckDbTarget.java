package io.flowsql.benchmarks.engine.duckdb;

import io.flowsql.benchmarks.engine.TargetEngine;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.load.SqliteToServerLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;

/** One DuckDB file per database under the work folder; no server. */
public final class DuckDbTarget implements TargetEngine {

    @Override
    public String engineId() {
        return DatabaseEngine.DUCKDB.id();
    }

    @Override
    public AutoCloseable load(Map<String, Path> files, Path work, Map<String, String> options) throws IOException, SQLException {
        SqliteToServerLoader loader = new SqliteToServerLoader(DatabaseEngine.DUCKDB);
        Files.createDirectories(work);
        for (Map.Entry<String, Path> f : files.entrySet()) {
            Path file = work.resolve(f.getKey() + ".duckdb");
            Files.deleteIfExists(file);
            String url = DatabaseEngine.DUCKDB.profile().jdbcUrlPrefix() + file;
            try (Connection c = DriverManager.getConnection(url)) {
                loader.load(f.getKey(), f.getValue(), c, null);
            }
            options.put("databases." + f.getKey() + ".url", url);
        }
        return null;
    }
}

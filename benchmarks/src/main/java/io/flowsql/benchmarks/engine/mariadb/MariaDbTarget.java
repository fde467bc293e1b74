package io.flowsql.benchmarks.engine.mariadb;

import io.flowsql.benchmarks.engine.TargetEngine;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.load.SqliteToServerLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/** Debian's mariadbd under {@code work/mariadb} ({@link LocalMariaDb}), one MariaDB database each, read by its least-privilege reader. */
public final class MariaDbTarget implements TargetEngine {

    @Override
    public String engineId() {
        return DatabaseEngine.MARIADB.id();
    }

    @Override
    public String unavailable() {
        return Files.isExecutable(Path.of("/usr/sbin/mariadbd")) || "1".equals(System.getenv("FLOWSQL_INSTALL_TOOLS")) ? null
                : "no mariadbd here (apt-get install mariadb-server, or FLOWSQL_INSTALL_TOOLS=1)";
    }

    @Override
    public LocalMariaDb load(Map<String, Path> files, Path work, Map<String, String> options) throws SQLException {
        LocalMariaDb maria = LocalMariaDb.start(work.resolve("mariadb"));
        SqliteToServerLoader loader = new SqliteToServerLoader(DatabaseEngine.MARIADB);
        try (Connection admin = maria.admin(); Statement s = admin.createStatement()) {
            for (Map.Entry<String, Path> f : files.entrySet()) {
                loader.load(f.getKey(), f.getValue(), admin, f.getKey());
                maria.grant(s, f.getKey());
                options.putAll(maria.options(f.getKey()));
            }
        } catch (SQLException | RuntimeException e) {
            maria.close();
            throw e;
        }
        return maria;
    }
}

package io.flowsql.sql.engine.sqlite;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.sqlite.JDBC;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteLimits;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

/** Opens a SQLite file so that nothing done through the connection can change it: read-only URI and query_only. */
public final class ReadOnlyConnections {

    private ReadOnlyConnections() {}

    /** @throws SQLException when no database file is there (a read-only open never creates one, not even empty) */
    public static Connection open(Path file) throws SQLException {
        if (!Files.isRegularFile(file)) {
            throw new SQLException("no SQLite database file at " + file.toAbsolutePath()
                    + " (opened read-only: nothing is created)", "08001");
        }
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setOpenMode(SQLiteOpenMode.OPEN_URI);
        config.enableLoadExtension(false);
        String url = "jdbc:sqlite:file:" + file.toAbsolutePath().toUri().getRawPath() + "?mode=ro";
        // The driver itself, not DriverManager: on a Flink session cluster each job's classes come from its own class
        // loader, and DriverManager only hands out drivers registered by a loader the caller sees. A TaskManager that
        // ran an earlier job of this jar had its driver registered from that job's loader, so a later job got "No
        // suitable driver found for jdbc:sqlite:..." (RescaleOnClusterIT found it after a resubmission).
        Connection connection = JDBC.createConnection(url, config.toProperties());
        try (Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA query_only = 1");
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
        return connection;
    }

    /**
     * {@link #open} plus a statement's bounds: no ATTACH slots, a cap on string and blob sizes ({@code maxBytes}, at
     * least 1 MiB) and on the statement's length.
     */
    public static Connection openBounded(Path file, long maxBytes) throws SQLException {
        Connection connection = open(file);
        try {
            SQLiteConnection sqlite = connection.unwrap(SQLiteConnection.class);
            sqlite.setLimit(SQLiteLimits.SQLITE_LIMIT_ATTACHED, 0);
            sqlite.setLimit(SQLiteLimits.SQLITE_LIMIT_LENGTH, (int) Math.min(Integer.MAX_VALUE, Math.max(1 << 20, maxBytes)));
            sqlite.setLimit(SQLiteLimits.SQLITE_LIMIT_SQL_LENGTH, 1 << 20);
            return connection;
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }
}

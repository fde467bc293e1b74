package io.flowsql.sql.exec;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteLimits;
import org.sqlite.SQLiteOpenMode;

/**
 * One hardened SQLite connection: opened read-only by URI ({@code mode=ro}), {@code query_only} on,
 * no ATTACH slots, no extension loading, a cap on string and blob sizes, and its own deadline.
 */
final class PooledConnection implements AutoCloseable {

    private final Connection connection;
    private final QueryDeadline deadline;

    private PooledConnection(Connection connection, QueryDeadline deadline) {
        this.connection = connection;
        this.deadline = deadline;
    }

    static PooledConnection open(Path file, long maxBytes) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setOpenMode(SQLiteOpenMode.OPEN_URI);
        config.enableLoadExtension(false);
        String url = "jdbc:sqlite:file:" + file.toAbsolutePath().toUri().getRawPath() + "?mode=ro";
        Connection connection = DriverManager.getConnection(url, config.toProperties());
        try {
            try (Statement statement = connection.createStatement()) {
                statement.execute("PRAGMA query_only = 1");
            }
            SQLiteConnection sqlite = connection.unwrap(SQLiteConnection.class);
            sqlite.setLimit(SQLiteLimits.SQLITE_LIMIT_ATTACHED, 0);
            sqlite.setLimit(SQLiteLimits.SQLITE_LIMIT_LENGTH, (int) Math.min(Integer.MAX_VALUE, Math.max(1 << 20, maxBytes)));
            sqlite.setLimit(SQLiteLimits.SQLITE_LIMIT_SQL_LENGTH, 1 << 20);
            return new PooledConnection(connection, QueryDeadline.installOn(connection));
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    Connection connection() {
        return connection;
    }

    QueryDeadline deadline() {
        return deadline;
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // closing a read-only connection loses nothing
        }
    }
}

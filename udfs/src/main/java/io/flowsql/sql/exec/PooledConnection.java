package io.flowsql.sql.exec;

import io.flowsql.sql.engine.sqlite.QueryDeadline;
import io.flowsql.sql.engine.sqlite.ReadOnlyConnections;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

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
        Connection connection = ReadOnlyConnections.openBounded(file, maxBytes);
        try {
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

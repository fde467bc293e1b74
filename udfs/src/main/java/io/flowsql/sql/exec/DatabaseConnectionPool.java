package io.flowsql.sql.exec;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The connections of one database, opened lazily; the number of permits bounds how many statements
 * run on this database at once (SQLite connections are not shared between threads).
 */
final class DatabaseConnectionPool implements AutoCloseable {

    private final Path file;
    private final long maxBytes;
    private final Semaphore permits;
    private final ConcurrentLinkedQueue<PooledConnection> idle = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;

    DatabaseConnectionPool(Path file, int size, long maxBytes) {
        this.file = file;
        this.maxBytes = maxBytes;
        this.permits = new Semaphore(size, true);
    }

    /** A connection, or null if none freed up within the wait. */
    PooledConnection acquire(long waitMillis) throws SQLException, InterruptedException {
        if (closed || !permits.tryAcquire(waitMillis, TimeUnit.MILLISECONDS)) {
            return null;
        }
        PooledConnection connection = idle.poll();
        if (connection != null) {
            return connection;
        }
        try {
            return PooledConnection.open(file, maxBytes);
        } catch (SQLException | RuntimeException e) {
            permits.release();
            throw e;
        }
    }

    /** Gives the connection back, or closes it when it may be in a bad state. */
    void release(PooledConnection connection, boolean healthy) {
        if (healthy && !closed) {
            idle.add(connection);
        } else {
            connection.close();
        }
        permits.release();
    }

    @Override
    public void close() {
        closed = true;
        PooledConnection connection;
        while ((connection = idle.poll()) != null) {
            connection.close();
        }
    }
}

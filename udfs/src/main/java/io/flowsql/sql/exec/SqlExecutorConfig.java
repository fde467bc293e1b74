package io.flowsql.sql.exec;

import java.io.Serializable;
import java.time.Duration;

/**
 * The limits of the safe executor, serializable so a Flink job can ship them to its task managers.
 *
 * @param timeoutMillis wall-clock limit per statement; the query is interrupted when it passes
 * @param maxRows rows returned at most (more are not fetched; the result is marked truncated)
 * @param maxBytes approximate bytes of values returned at most (same)
 * @param poolSizePerDatabase open connections per database, which is also the number of
 *     statements that may run at once on one database
 */
public record SqlExecutorConfig(long timeoutMillis, int maxRows, long maxBytes, int poolSizePerDatabase)
        implements Serializable {

    private static final long serialVersionUID = 1L;

    public SqlExecutorConfig {
        if (timeoutMillis <= 0 || maxRows <= 0 || maxBytes <= 0 || poolSizePerDatabase <= 0) {
            throw new IllegalArgumentException("every executor limit must be positive: " + timeoutMillis
                    + " ms, " + maxRows + " rows, " + maxBytes + " bytes, pool " + poolSizePerDatabase);
        }
    }

    /** 10 s, 10 000 rows, 8 MiB, 4 connections per database. */
    public static SqlExecutorConfig defaults() {
        return new SqlExecutorConfig(10_000, 10_000, 8L << 20, 4);
    }

    public Duration timeout() {
        return Duration.ofMillis(timeoutMillis);
    }

    public SqlExecutorConfig withTimeoutMillis(long millis) {
        return new SqlExecutorConfig(millis, maxRows, maxBytes, poolSizePerDatabase);
    }

    public SqlExecutorConfig withMaxRows(int rows) {
        return new SqlExecutorConfig(timeoutMillis, rows, maxBytes, poolSizePerDatabase);
    }

    public SqlExecutorConfig withMaxBytes(long bytes) {
        return new SqlExecutorConfig(timeoutMillis, maxRows, bytes, poolSizePerDatabase);
    }

    public SqlExecutorConfig withPoolSizePerDatabase(int size) {
        return new SqlExecutorConfig(timeoutMillis, maxRows, maxBytes, size);
    }
}

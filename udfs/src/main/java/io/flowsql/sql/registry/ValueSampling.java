package io.flowsql.sql.registry;

import java.io.Serializable;

/**
 * How much of a live database the value index may read: rows sampled per column, bytes kept per column and per
 * database, and the time the whole build may take. Never a full scan of a large table: each column reads at most
 * {@code rowsPerColumn} rows.
 */
public record ValueSampling(int rowsPerColumn, long bytesPerColumn, long bytesPerDatabase, long millisPerDatabase)
        implements Serializable {

    private static final long serialVersionUID = 1L;

    public ValueSampling {
        if (rowsPerColumn <= 0 || bytesPerColumn <= 0 || bytesPerDatabase <= 0 || millisPerDatabase <= 0) {
            throw new IllegalArgumentException("value sampling bounds must be positive");
        }
    }

    /** 10 000 rows and 256 KiB per column, 16 MiB and 30 s per database. */
    public static ValueSampling defaults() {
        return new ValueSampling(10_000, 256L << 10, 16L << 20, 30_000);
    }
}

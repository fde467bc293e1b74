package io.flowsql.benchmarks.engine.postgresql;

import java.util.Arrays;
import java.util.Locale;

/**
 * How databases loaded into one PostgreSQL server are kept apart ({@code deploy/postgres-start.sh --isolate}):
 * <ul>
 *   <li>{@link #SHARED}: one schema each in database {@code postgres}, one login role ({@code flowsql_reader}) that
 *       reads them all; only the job's table-level policy keeps a tenant to its databases;</li>
 *   <li>{@link #ROLE}: one schema each in database {@code postgres}, one login role per database
 *       ({@code flowsql_<db>}) with USAGE and SELECT on its own schema only: the server refuses another schema's rows,
 *       but the shared catalog ({@code pg_class}) still names every table;</li>
 *   <li>{@link #DATABASE}: one PostgreSQL database per loaded database, its own login role that may connect to it
 *       alone: no other database's tables, rows or names can be reached from its connections.</li>
 * </ul>
 */
public enum Isolation {
    SHARED, ROLE, DATABASE;

    /** {@code shared}, {@code role} or {@code database} (any case). */
    public static Isolation parse(String text) {
        try {
            return valueOf(text.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--isolate " + text + ": expected one of "
                    + Arrays.toString(values()).toLowerCase(Locale.ROOT), e);
        }
    }
}

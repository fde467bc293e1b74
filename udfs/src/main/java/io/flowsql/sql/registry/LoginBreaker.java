package io.flowsql.sql.registry;

import io.flowsql.sql.DatabaseUnavailable;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Fails fast on a database that refuses logins or cannot be reached. Every failed attempt to open a physical connection
 * opens the breaker of that database for {@code openMillis}: meanwhile {@link #check} throws {@link DatabaseUnavailable}
 * at once, so a question neither waits for the pool's time-out nor retries at every step. After that time the next
 * caller goes through to the pool again (whose next failed attempt opens the breaker again); a connection opened
 * closes it. The reason kept is a category and the SQLSTATE, never the driver's message (which may name the user, the
 * host or the file).
 */
public final class LoginBreaker {

    private record Open(String reason, long untilNanos) {}

    private final long openNanos;
    private final LongSupplier clock;
    private final Map<String, Open> open = new ConcurrentHashMap<>();

    public LoginBreaker(long openMillis) {
        this(openMillis, System::nanoTime);
    }

    LoginBreaker(long openMillis, LongSupplier clock) {
        this.openNanos = Math.max(1, openMillis) * 1_000_000L;
        this.clock = clock;
    }

    /** @throws DatabaseUnavailable while the breaker of {@code dbId} is open */
    public void check(String dbId) {
        Open o = open.get(dbId);
        if (o != null && clock.getAsLong() - o.untilNanos() < 0) {
            throw unavailable(dbId, o.reason());
        }
    }

    /** A physical connection to {@code dbId} could not be opened: open its breaker. */
    public void failed(String dbId, Throwable cause) {
        open.put(dbId, new Open(reason(cause), clock.getAsLong() + openNanos));
    }

    /** A physical connection to {@code dbId} was opened: close its breaker. */
    public void succeeded(String dbId) {
        open.remove(dbId);
    }

    /** The exception for a database found unavailable now (opens its breaker too). */
    public DatabaseUnavailable unavailableNow(String dbId, Throwable cause) {
        failed(dbId, cause);
        return unavailable(dbId, reason(cause));
    }

    private DatabaseUnavailable unavailable(String dbId, String reason) {
        return new DatabaseUnavailable("database " + dbId + " is unavailable: " + reason + "; its questions fail at once for "
                + openNanos / 1_000_000_000L + " s before the next attempt to connect");
    }

    /** The category of a connection failure, from its SQLSTATE (PostgreSQL's classes 08, 28, 3D, 53, 57). */
    static String reason(Throwable cause) {
        SQLException sql = null;
        for (Throwable t = cause; t != null && sql == null; t = t.getCause()) {
            if (t instanceof SQLException s && s.getSQLState() != null) {
                sql = s;
            }
        }
        if (sql == null) {
            return cause instanceof SQLException ? "cannot connect" : "cannot connect (" + cause.getClass().getSimpleName() + ")";
        }
        String state = sql.getSQLState();
        String why;
        if (state.startsWith("28")) {
            why = "the server refused the login";
        } else if (state.startsWith("08")) {
            why = "the server cannot be reached";
        } else if (state.equals("3D000")) {
            why = "the server has no such database";
        } else if (state.equals("53300")) {
            why = "the server accepts no more connections";
        } else if (state.startsWith("57P")) {
            why = "the server is starting or shutting down";
        } else {
            why = "cannot connect";
        }
        return why + " (SQLSTATE " + state + ")";
    }
}

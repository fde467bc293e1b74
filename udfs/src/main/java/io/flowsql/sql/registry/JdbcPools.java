package io.flowsql.sql.registry;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.util.DriverDataSource;
import io.flowsql.sql.engine.EngineProfile;
import io.flowsql.sql.engine.duckdb.DuckDbInstance;
import io.flowsql.sql.engine.duckdb.DuckDbJfrHook;
import io.flowsql.sql.DatabaseUnavailable;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * One bounded HikariCP pool per declared database, opened on first use. PostgreSQL connections start read-only by
 * default ({@code default_transaction_read_only}) with server-side prepared statements off (so {@code DISCARD ALL}
 * between statements leaves the driver nothing stale); DuckDB connections are duplicates of one locked-down instance
 * ({@link DuckDbInstance}). The password is read here ({@link Credentials}) and handed to the pool only.
 * <p>A database that refuses logins or cannot be reached fails fast ({@link LoginBreaker}): a failed attempt to open a
 * connection makes {@link #connection} throw {@link DatabaseUnavailable} within a poll ({@value #POLL_MILLIS} ms) for
 * whoever is waiting, and at once for the next {@value #UNAVAILABLE_MILLIS} ms, instead of every statement waiting for
 * the pool's time-out. PostgreSQL's connect and login time-outs are {@value #CONNECT_SECONDS} s, so an unreachable host
 * is found out as quickly.</p>
 */
public final class JdbcPools implements AutoCloseable {

    /** How long a database that refused a login is failed at once before the pool tries again. */
    public static final long UNAVAILABLE_MILLIS = 10_000;
    static final long POLL_MILLIS = 1_000;
    public static final int CONNECT_SECONDS = 5;

    private final Credentials credentials;
    private final long connectionWaitMillis;
    private final LoginBreaker breaker = new LoginBreaker(UNAVAILABLE_MILLIS);
    private final Map<String, HikariDataSource> pools = new ConcurrentHashMap<>();
    private final Map<String, DuckDbInstance> duckdb = new ConcurrentHashMap<>();

    public JdbcPools(Credentials credentials, long connectionWaitMillis) {
        this.credentials = credentials;
        this.connectionWaitMillis = Math.max(250, connectionWaitMillis);
    }

    /** The pool of this database, opened on first use. */
    public DataSource pool(DatabaseDeclaration d) {
        return hikari(d);
    }

    private HikariDataSource hikari(DatabaseDeclaration d) {
        try {
            return pools.computeIfAbsent(d.id(), id -> open(d));
        } catch (IllegalStateException | UncheckedIOException e) {
            // the password's variable or file is missing (the message names the variable or file, never a value)
            throw new DatabaseUnavailable("database " + d.id() + " is unavailable: " + Secrets.scrub(e.getMessage()));
        }
    }

    /**
     * A connection from the pool, waiting at most the configured time for a free one.
     * @throws DatabaseUnavailable at once when the database refused a login or could not be reached (now or within the
     *     last {@value #UNAVAILABLE_MILLIS} ms)
     * @throws SQLTransientConnectionException when no connection became free in time
     */
    public Connection connection(DatabaseDeclaration d) throws SQLException {
        breaker.check(d.id());
        HikariDataSource pool = hikari(d);
        long deadline = System.nanoTime() + connectionWaitMillis * 1_000_000L;
        while (true) {
            try {
                return pool.getConnection();
            } catch (SQLTransientConnectionException e) {
                breaker.check(d.id());
                if (System.nanoTime() - deadline >= 0) {
                    throw e;
                }
            }
        }
    }

    /** Takes a connection out of the pool for good (its session could not be reset). */
    public void evict(DatabaseDeclaration d, Connection connection) {
        HikariDataSource pool = pools.get(d.id());
        if (pool != null) {
            pool.evictConnection(connection);
        }
    }

    private HikariDataSource open(DatabaseDeclaration d) {
        // before DuckDB's driver can initialize in this job's loader: here, or in a JVM-wide driver scan that Hikari's
        // DriverManager look-up may start with this loader as the context class loader
        DuckDbJfrHook.prevent();
        HikariConfig c = new HikariConfig();
        c.setPoolName("flowsql-" + d.id());
        c.setMaximumPoolSize(d.poolSize());
        c.setMinimumIdle(0);
        // waited for in slices: between two, a connection attempt that failed meanwhile ends the wait (LoginBreaker)
        c.setConnectionTimeout(Math.min(POLL_MILLIS, connectionWaitMillis));
        // a live connection's check at borrow time may take as long as one slice (Hikari caps it there anyway)
        c.setValidationTimeout(Math.min(POLL_MILLIS, connectionWaitMillis));
        c.setInitializationFailTimeout(-1);
        c.setAutoCommit(false);
        EngineProfile profile = d.engine().profile();
        if (profile.driverClass() != null) {
            c.setReadOnly(true);
            Properties properties = profile.connectionProperties(d.schemas(), CONNECT_SECONDS);
            // the driver by class, not through DriverManager: a job's drivers are deregistered when its last engine closes
            c.setDataSource(new BreakerDataSource(d.id(), new DriverDataSource(d.url(), profile.driverClass(), properties,
                    d.user().isEmpty() ? null : d.user(), credentials.password(d)), breaker));
        } else {
            DuckDbInstance instance = duckdb.computeIfAbsent(d.id(), id -> DuckDbInstance.open(d.id(), d.url(), d.files()));
            c.setDataSource(new BreakerDataSource(d.id(), instance, breaker));
        }
        return new HikariDataSource(c);
    }

    @Override
    public void close() {
        pools.values().forEach(HikariDataSource::close);
        pools.clear();
        duckdb.values().forEach(DuckDbInstance::close);
        duckdb.clear();
    }
}

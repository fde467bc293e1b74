package io.flowsql.sql.registry;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.flowsql.sql.DatabaseEngine;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * One bounded HikariCP pool per declared database, opened on first use. PostgreSQL connections start read-only by
 * default ({@code default_transaction_read_only}) with server-side prepared statements off (so {@code DISCARD ALL}
 * between statements leaves the driver nothing stale); DuckDB connections are duplicates of one locked-down instance
 * ({@link DuckDbInstance}). The password is read here ({@link Credentials}) and handed to the pool only.
 */
public final class JdbcPools implements AutoCloseable {

    private final Credentials credentials;
    private final long connectionWaitMillis;
    private final Map<String, HikariDataSource> pools = new ConcurrentHashMap<>();
    private final Map<String, DuckDbInstance> duckdb = new ConcurrentHashMap<>();

    public JdbcPools(Credentials credentials, long connectionWaitMillis) {
        this.credentials = credentials;
        this.connectionWaitMillis = Math.max(250, connectionWaitMillis);
    }

    /** The pool of this database, opened on first use. */
    public DataSource pool(DatabaseDeclaration d) {
        return pools.computeIfAbsent(d.id(), id -> open(d));
    }

    /** A connection from the pool, waiting at most the configured time. */
    public Connection connection(DatabaseDeclaration d) throws SQLException {
        return pool(d).getConnection();
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
        c.setConnectionTimeout(connectionWaitMillis);
        c.setInitializationFailTimeout(-1);
        c.setAutoCommit(false);
        if (d.engine() == DatabaseEngine.POSTGRESQL) {
            c.setReadOnly(true);
            c.setJdbcUrl(d.url());
            // the driver by class, not through DriverManager: a job's drivers are deregistered when its last engine closes
            c.setDriverClassName("org.postgresql.Driver");
            if (!d.user().isEmpty()) {
                c.setUsername(d.user());
            }
            String password = credentials.password(d);
            if (password != null) {
                c.setPassword(password);
            }
            String searchPath = d.schemas().isEmpty() ? "" : " -c search_path=" + String.join(",", d.schemas());
            c.addDataSourceProperty("options", "-c default_transaction_read_only=on" + searchPath);
            c.addDataSourceProperty("prepareThreshold", "0");
            c.addDataSourceProperty("ApplicationName", "flowsql");
            c.addDataSourceProperty("readOnlyMode", "always");
        } else {
            DuckDbInstance instance = duckdb.computeIfAbsent(d.id(), id -> DuckDbInstance.open(d));
            c.setDataSource(instance);
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

package io.flowsql.sql.server;

import io.flowsql.sql.*;

import io.flowsql.sql.server.JdbcSchemaCatalog;
import io.flowsql.sql.server.RoutingSchemaCatalog;
import io.flowsql.sql.catalog.SchemaCatalog;
import io.flowsql.sql.catalog.SqliteSchemaCatalog;
import io.flowsql.sql.catalog.ValueExamplePolicy;
import io.flowsql.sql.exec.JdbcSafeExecutor;
import io.flowsql.sql.exec.RoutingSafeExecutor;
import io.flowsql.sql.exec.SafeExecutor;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import io.flowsql.sql.index.CachingValueIndexProvider;
import io.flowsql.sql.index.JdbcTextValues;
import io.flowsql.sql.index.LcsValueScorer;
import io.flowsql.sql.index.NgramValueIndex;
import io.flowsql.sql.registry.Credentials;
import io.flowsql.sql.registry.DatabaseDeclaration;
import io.flowsql.sql.registry.DatabaseRegistry;
import io.flowsql.sql.registry.JdbcPools;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The executor, catalog and value indexes over every database of a registry: with only SQLite folders exactly the
 * SQLite parts; with declared databases, parts that route each id to SQLite or to the live PostgreSQL/DuckDB database
 * (one pool per database shared by the executor, the catalog and the value index).
 */
public record DatabaseParts(SafeExecutor sql, SchemaCatalog catalog, CachingValueIndexProvider values) {

    /**
     * The executor alone (for a tool that runs SQL a person typed, as the job would run it): SQLite only when nothing is
     * declared, else routing each id to SQLite or to its PostgreSQL/DuckDB pool. Closing it closes the pools.
     */
    public static SafeExecutor executor(DatabaseRegistry registry, SqlExecutorConfig config) {
        SqliteSafeExecutor sqlite = new SqliteSafeExecutor(registry.sqlite(), config);
        if (registry.declared().isEmpty()) {
            return sqlite;
        }
        JdbcPools pools = new JdbcPools(Credentials.fromEnvironment(), 3 * config.timeoutMillis());
        return new RoutingSafeExecutor(registry, sqlite, new JdbcSafeExecutor(registry, config, pools));
    }

    public static DatabaseParts build(DatabaseRegistry registry, SqlExecutorConfig config, int cachedDatabases) {
        return build(registry, config, cachedDatabases, java.time.Duration.ZERO);
    }

    /** @param schemaRefresh how old a SQLite database's schema may get before it is read again (zero: never) */
    public static DatabaseParts build(DatabaseRegistry registry, SqlExecutorConfig config, int cachedDatabases,
                                      java.time.Duration schemaRefresh) {
        SqliteSchemaCatalog sqliteCatalog = new SqliteSchemaCatalog(registry.sqlite(), ValueExamplePolicy.defaults(),
                cachedDatabases, schemaRefresh);
        SqliteSafeExecutor sqlite = new SqliteSafeExecutor(registry.sqlite(), config);
        if (registry.declared().isEmpty()) {
            return new DatabaseParts(sqlite, sqliteCatalog,
                    CachingValueIndexProvider.ngram(registry.sqlite(), LcsValueScorer.defaults(), cachedDatabases));
        }
        JdbcPools pools = new JdbcPools(Credentials.fromEnvironment(), 3 * config.timeoutMillis());
        JdbcSafeExecutor jdbc = new JdbcSafeExecutor(registry, config, pools);
        JdbcSchemaCatalog live = new JdbcSchemaCatalog(registry, pools, ValueExamplePolicy.defaults());
        RoutingSchemaCatalog catalog = new RoutingSchemaCatalog(registry, sqliteCatalog, live);
        CachingValueIndexProvider values = new CachingValueIndexProvider(dbId -> {
            DatabaseDeclaration d = registry.declaration(dbId).orElse(null);
            if (d == null) {
                return new NgramValueIndex(CachingValueIndexProvider.loadValues(registry.sqlite(), dbId), LcsValueScorer.defaults());
            }
            try (Connection connection = pools.connection(d)) {
                try {
                    return new NgramValueIndex(JdbcTextValues.sample(d, live.schema(dbId), connection,
                            CachingValueIndexProvider.MIN_VALUE_LENGTH, CachingValueIndexProvider.MAX_VALUE_LENGTH).values(),
                            LcsValueScorer.defaults());
                } finally {
                    if (!connection.getAutoCommit()) {
                        connection.rollback();
                    }
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cannot sample the values of " + dbId, e);
            }
        }, cachedDatabases);
        return new DatabaseParts(new RoutingSafeExecutor(registry, sqlite, jdbc), catalog, values);
    }
}

package io.flowsql.sql.server;

import io.flowsql.sql.catalog.*;

import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.registry.DatabaseDeclaration;
import io.flowsql.sql.registry.DatabaseRegistry;
import io.flowsql.sql.registry.JdbcPools;
import io.flowsql.sql.registry.Secrets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The catalogs of the declared PostgreSQL and DuckDB databases, read from the live databases ({@link JdbcSchemaReader})
 * on first use, then again on demand ({@link #refresh}) and on each database's schedule ({@code refresh-interval}).
 * A refresh reads a whole new schema and then swaps it in at once: a question sees either the old catalog or the new
 * one, never a mix; a refresh that fails keeps the old one.
 */
public final class JdbcSchemaCatalog implements SchemaCatalog, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcSchemaCatalog.class);

    private final DatabaseRegistry registry;
    private final JdbcPools pools;
    private final JdbcSchemaReader reader;
    private final Map<String, DatabaseSchema> current = new ConcurrentHashMap<>();
    private final Map<String, Object> loading = new ConcurrentHashMap<>();
    private final AtomicLong refreshes = new AtomicLong();
    private final ScheduledExecutorService scheduler;

    public JdbcSchemaCatalog(DatabaseRegistry registry, JdbcPools pools, ValueExamplePolicy policy) {
        this.registry = registry;
        this.pools = pools;
        this.reader = new JdbcSchemaReader(policy);
        ScheduledExecutorService s = null;
        for (DatabaseDeclaration d : registry.declared()) {
            if (d.refreshMillis() > 0) {
                if (s == null) {
                    s = Executors.newSingleThreadScheduledExecutor(r -> {
                        Thread t = new Thread(r, "flowsql-catalog-refresh");
                        t.setDaemon(true);
                        return t;
                    });
                }
                s.scheduleWithFixedDelay(() -> refreshQuietly(d.id()), d.refreshMillis(), d.refreshMillis(), TimeUnit.MILLISECONDS);
            }
        }
        this.scheduler = s;
    }

    @Override
    public DatabaseSchema schema(String dbId) {
        DatabaseSchema schema = current.get(dbId);
        if (schema != null) {
            return schema;
        }
        DatabaseDeclaration d = registry.declaration(dbId)
                .orElseThrow(() -> new IllegalArgumentException("no database named " + dbId));
        synchronized (loading.computeIfAbsent(dbId, k -> new Object())) {
            schema = current.get(dbId);
            return schema != null ? schema : refresh(d);
        }
    }

    @Override
    public DatabaseEngine engine(String dbId) {
        return registry.engineOf(dbId);
    }

    @Override
    public boolean contains(String dbId) {
        return registry.declaration(dbId).isPresent();
    }

    /** Reads the database's catalog again and swaps it in whole; returns the new one. */
    public DatabaseSchema refresh(String dbId) {
        return refresh(registry.declaration(dbId).orElseThrow(() -> new IllegalArgumentException("no database named " + dbId)));
    }

    /** How many catalogs were read so far (first reads and refreshes). */
    public long refreshes() {
        return refreshes.get();
    }

    private DatabaseSchema refresh(DatabaseDeclaration d) {
        long start = System.nanoTime();
        try (Connection connection = pools.connection(d)) {
            DatabaseSchema schema;
            try {
                schema = reader.read(d, connection);
            } finally {
                if (!connection.getAutoCommit()) {
                    connection.rollback();
                }
            }
            current.put(d.id(), schema);
            refreshes.incrementAndGet();
            LOG.info("catalog of {} ({}) read: {} tables, {} columns in {} ms", d.id(), d.engine().displayName(),
                    schema.tables().size(), schema.columnCount(), (System.nanoTime() - start) / 1_000_000);
            return schema;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the catalog of " + d.id() + ": " + Secrets.scrub(e.getMessage()), e);
        }
    }

    private void refreshQuietly(String dbId) {
        try {
            refresh(dbId);
        } catch (RuntimeException e) {
            LOG.warn("refreshing the catalog of {} failed; the previous one stays: {}", dbId, Secrets.scrub(e.getMessage()));
        }
    }

    @Override
    public void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }
}

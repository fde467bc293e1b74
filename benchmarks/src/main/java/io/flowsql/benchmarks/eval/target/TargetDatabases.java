package io.flowsql.benchmarks.eval.target;

import io.flowsql.benchmarks.engine.TargetEngine;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.exec.JdbcSafeExecutor;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.load.SqliteToServerLoader;
import io.flowsql.sql.registry.Credentials;
import io.flowsql.sql.registry.DatabaseDeclaration;
import io.flowsql.sql.registry.DatabaseRegistry;
import io.flowsql.sql.registry.JdbcPools;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;

/**
 * A benchmark's databases on a target engine, each declared under its own benchmark id ({@code databases.<db>.*}) so
 * that the job routes a question on {@code <db>} to the target's copy and the scorer runs predictions there. Either
 * loaded here by the engine's {@link TargetEngine} (with {@link SqliteToServerLoader}), or declared in a file of job
 * options a running server wrote ({@code deploy/postgres-start.sh}'s {@code databases.properties}).
 */
public final class TargetDatabases implements AutoCloseable {

    private final DatabaseEngine engine;
    private final Map<String, String> jobOptions;
    private final List<DatabaseDeclaration> declared;
    private final AutoCloseable server;

    private TargetDatabases(DatabaseEngine engine, Map<String, String> jobOptions, AutoCloseable server) {
        this.engine = engine;
        this.jobOptions = Map.copyOf(jobOptions);
        this.server = server;
        Map<String, String> settings = new LinkedHashMap<>();
        jobOptions.forEach((k, v) -> settings.put(k.substring("databases.".length()), v));
        this.declared = DatabaseRegistry.fromSettings(new DatabaseLocator(List.of(), List.of()), settings).declared();
    }

    /**
     * Loads databases {@code dbIds} (SQLite files under {@code databaseRoot}) into the target engine under {@code work}.
     * @param poolSize connections per database (the scorer's parallelism)
     */
    public static TargetDatabases load(DatabaseEngine engine, Path databaseRoot, Collection<String> dbIds, Path work,
                                       int poolSize) {
        long start = System.nanoTime();
        try {
            Files.createDirectories(work);
            Map<String, String> options = new LinkedHashMap<>();
            TargetEngine target = TargetEngine.of(engine).orElseThrow(() -> new IllegalArgumentException(
                    "the " + engine.displayName() + " databases need no loading"));
            Map<String, Path> files = new LinkedHashMap<>();
            new TreeSet<>(dbIds).forEach(db -> files.put(db, sqlite(databaseRoot, db)));
            AutoCloseable server = target.load(files, work, options);
            for (String db : dbIds) {
                options.put("databases." + db + ".pool-size", String.valueOf(Math.max(1, poolSize)));
            }
            System.out.printf("loaded %d databases into %s in %.1f s%n", dbIds.size(), engine.displayName(),
                    (System.nanoTime() - start) / 1e9);
            return new TargetDatabases(engine, options, server);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot load the databases into " + engine.displayName() + ": " + e.getMessage(), e);
        }
    }

    /**
     * The databases declared in a file of job options ({@code databases.<id>.<setting>=value}, one a line), as a running
     * server's script wrote them; each of {@code dbIds} must be declared there with the target engine.
     */
    public static TargetDatabases declaredIn(Path file, DatabaseEngine engine, Collection<String> dbIds) {
        Map<String, String> options = new LinkedHashMap<>();
        Properties given = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            given.load(in);
            new TreeSet<>(given.stringPropertyNames()).stream().filter(k -> k.startsWith("databases."))
                    .forEach(k -> options.put(k, given.getProperty(k).strip()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        TargetDatabases target = new TargetDatabases(engine, options, null);
        List<String> missing = new ArrayList<>();
        for (String db : new TreeSet<>(dbIds)) {
            if (target.declared.stream().noneMatch(d -> d.id().equals(db) && d.engine() == engine)) {
                missing.add(db);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException(file + " declares no " + engine.displayName() + " database for " + missing
                    + " (start the server with these databases, e.g. deploy/postgres-start.sh " + String.join(",", missing) + ")");
        }
        return target;
    }

    private static Path sqlite(Path databaseRoot, String db) {
        return databaseRoot.resolve(db).resolve(db + ".sqlite");
    }

    public DatabaseEngine engine() {
        return engine;
    }

    /** The job options declaring every database ({@code databases.<db>.url}, ...): no password, only its file. */
    public Map<String, String> jobOptions() {
        return jobOptions;
    }

    public List<DatabaseDeclaration> declared() {
        return declared;
    }

    /**
     * The executor running SQL on the target's copies, with the SQLite scoring's budgets (time, rows, result bytes)
     * and the engine's guard, read-only transactions and pool.
     */
    public JdbcSafeExecutor executor(SqlExecutorConfig config) {
        return new JdbcSafeExecutor(new DatabaseRegistry(new DatabaseLocator(List.of(), List.of()), declared), config,
                new JdbcPools(Credentials.fromEnvironment(), 3 * config.timeoutMillis()));
    }

    /** Stops the server this started (a server declared in a file keeps running). */
    @Override
    public void close() {
        if (server != null) {
            try {
                server.close();
            } catch (Exception e) {
                // stopping anyway
            }
        }
    }
}

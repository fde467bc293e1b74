package io.flowsql.benchmarks.soak;

import io.flowsql.benchmarks.db.ReaderRole;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.load.SqliteToServerLoader;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The soak's server databases: one Spider database in an embedded PostgreSQL (own port and data directory, read by the
 * least-privilege {@link ReaderRole}), which the soak stops and starts again on the same port and data, or whose
 * pooled connections it drops; and one Spider database in a DuckDB file.
 */
final class SoakDatabases implements AutoCloseable {
    static final String POSTGRES_DB = "concert_singer";
    static final String DUCKDB_DB = "pets_1";

    private final Path pgData;
    private final int pgPort;
    private final Map<String, String> jobOptions = new LinkedHashMap<>();
    private EmbeddedPostgres pg;

    private SoakDatabases(Path pgData, int pgPort) {
        this.pgData = pgData;
        this.pgPort = pgPort;
    }

    /** Starts PostgreSQL on {@code pgPort} and loads both databases from the Spider SQLite files under {@code work}. */
    static SoakDatabases start(Path sharedData, Path work, int pgPort) throws Exception {
        SoakDatabases dbs = new SoakDatabases(work.resolve("pgdata"), pgPort);
        dbs.pg = dbs.launch();
        try (Connection admin = dbs.pg.getPostgresDatabase().getConnection(); Statement s = admin.createStatement()) {
            Path secret = ReaderRole.create(s, work);
            new SqliteToServerLoader(DatabaseEngine.POSTGRESQL).load(POSTGRES_DB, sqlite(sharedData, POSTGRES_DB), admin, POSTGRES_DB);
            ReaderRole.grant(s, POSTGRES_DB);
            dbs.jobOptions.putAll(ReaderRole.options(POSTGRES_DB, "jdbc:postgresql://127.0.0.1:" + pgPort + "/postgres", secret));
        } catch (Exception e) {
            dbs.close();
            throw e;
        }
        Path duckFile = work.resolve(DUCKDB_DB + ".duckdb");
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:" + duckFile)) {
            new SqliteToServerLoader(DatabaseEngine.DUCKDB).load(DUCKDB_DB, sqlite(sharedData, DUCKDB_DB), duck, null);
        }
        dbs.jobOptions.put("databases." + DUCKDB_DB + ".url", "jdbc:duckdb:" + duckFile);
        dbs.jobOptions.put("databases." + DUCKDB_DB + ".pool-size", "2");
        return dbs;
    }

    private static Path sqlite(Path sharedData, String db) {
        return sharedData.resolve("spider/database").resolve(db).resolve(db + ".sqlite");
    }

    private EmbeddedPostgres launch() throws Exception {
        return EmbeddedPostgres.builder().setPGStartupWait(Duration.ofSeconds(120)).setDataDirectory(pgData)
                .setCleanDataDirectory(false).setPort(pgPort).start();
    }

    /** The job options declaring both databases ({@code databases.<id>.*}). */
    Map<String, String> jobOptions() {
        return jobOptions;
    }

    /** Engine → the Spider database it holds. */
    static Map<String, String> byEngine() {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("postgresql", POSTGRES_DB);
        out.put("duckdb", DUCKDB_DB);
        return out;
    }

    synchronized void stopPostgres() throws Exception {
        pg.close();
        pg = null;
    }

    synchronized void startPostgres() throws Exception {
        pg = launch();
    }

    /** Terminates every client backend but the caller's own (the job's pooled connections); returns how many. */
    synchronized int dropConnections() throws Exception {
        try (Connection admin = pg.getPostgresDatabase().getConnection(); Statement s = admin.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
                        + "WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'")) {
            r.next();
            return r.getInt(1);
        }
    }

    @Override
    public synchronized void close() throws Exception {
        if (pg != null) {
            pg.close();
            pg = null;
        }
    }
}

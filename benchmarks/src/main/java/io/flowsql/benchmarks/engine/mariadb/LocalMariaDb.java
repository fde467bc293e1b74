package io.flowsql.benchmarks.engine.mariadb;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A MariaDB server of the benchmarks' own: {@code deploy/mariadb-start.sh} in a folder on a free port, an admin user
 * (its password kept in memory) and the least-privilege reader {@code flowsql_reader} (SELECT on the databases granted
 * to it, its random password only in {@code reader.secret}, mode 600), both created as root over the server's socket.
 */
public final class LocalMariaDb implements AutoCloseable {

    public static final String READER = "flowsql_reader";

    private final Path script;
    private final Path dir;
    private final String url;
    private final String adminPassword;
    private final Path readerSecret;

    private LocalMariaDb(Path script, Path dir, String url, String adminPassword, Path readerSecret) {
        this.script = script;
        this.dir = dir;
        this.url = url;
        this.adminPassword = adminPassword;
        this.readerSecret = readerSecret;
    }

    /** The start script: {@code deploy/mariadb-start.sh} of the project ({@code -Dflowsql.project.dir}, the working folder or its parent). */
    static Path script() {
        for (Path base : new Path[] {Path.of(System.getProperty("flowsql.project.dir", "")), Path.of(""), Path.of("..")}) {
            Path script = base.toAbsolutePath().normalize().resolve("deploy/mariadb-start.sh");
            if (Files.isExecutable(script)) {
                return script;
            }
        }
        throw new IllegalStateException("deploy/mariadb-start.sh not found from " + Path.of("").toAbsolutePath());
    }

    /** Starts (or, when one runs there, reuses) a server in {@code dir} and creates its users afresh. */
    public static LocalMariaDb start(Path dir) {
        try {
            Files.createDirectories(dir);
            Path script = script();
            Process p = new ProcessBuilder(script.toString(), dir.toString(), String.valueOf(freePort()))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String url = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0 || !url.startsWith("jdbc:mariadb:")) {
                throw new IllegalStateException("deploy/mariadb-start.sh failed (" + url + "); apt-get install mariadb-server,"
                        + " or FLOWSQL_INSTALL_TOOLS=1");
            }
            String adminPassword = password();
            String readerPassword = password();
            Path secret = dir.resolve("reader.secret");
            Files.deleteIfExists(secret);
            Files.createFile(secret, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(secret, readerPassword);
            root(dir, "DROP USER IF EXISTS 'flowsql_admin'@'127.0.0.1', '" + READER + "'@'127.0.0.1';"
                    + " CREATE USER 'flowsql_admin'@'127.0.0.1' IDENTIFIED BY '" + adminPassword + "';"
                    + " GRANT ALL ON *.* TO 'flowsql_admin'@'127.0.0.1' WITH GRANT OPTION;"
                    + " CREATE USER '" + READER + "'@'127.0.0.1' IDENTIFIED BY '" + readerPassword + "';");
            return new LocalMariaDb(script, dir, url, adminPassword, secret);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** {@code jdbc:mariadb://127.0.0.1:PORT/db}. */
    public String url(String db) {
        return url + db;
    }

    /** An admin connection (all privileges): to load the databases. */
    public Connection admin() throws SQLException {
        return DriverManager.getConnection(url, "flowsql_admin", adminPassword);
    }

    /** Lets the reader read every table of database {@code db}. */
    public void grant(Statement admin, String db) throws SQLException {
        admin.execute("GRANT SELECT ON `" + db.replace("`", "``") + "`.* TO '" + READER + "'@'127.0.0.1'");
    }

    /** The job options ({@code databases.<db>.*}) declaring database {@code db} as read by the reader. */
    public Map<String, String> options(String db) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("databases." + db + ".url", url(db));
        options.put("databases." + db + ".user", READER);
        options.put("databases." + db + ".password-file", readerSecret.toString());
        options.put("databases." + db + ".schemas", db);
        return options;
    }

    private static void root(Path dir, String sql) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("mariadb", "--no-defaults", "-S", dir.resolve("mysqld.sock").toString(), "-uroot",
                "-e", sql).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("mariadb client failed: " + out);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static String password() {
        byte[] random = new byte[18];
        new SecureRandom().nextBytes(random);
        return "pw" + HexFormat.of().formatHex(random);
    }

    /** Starts the stopped server again in its folder, on the same port and data (its users are kept there). */
    public void restart() {
        try {
            Process p = new ProcessBuilder(script.toString(), dir.toString(), url.replaceAll(".*:(\\d+)/$", "$1"))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String again = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0 || !again.equals(url)) {
                throw new IllegalStateException("MariaDB did not start again on " + url + ": " + again);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Stops the server (its data folder stays for the next start). */
    @Override
    public void close() {
        try {
            Process p = new ProcessBuilder(script.resolveSibling("mariadb-stop.sh").toString(), dir.toString())
                    .redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            p.waitFor(60, TimeUnit.SECONDS);
        } catch (IOException e) {
            // the server may be left running; deploy/mariadb-stop.sh DIR stops it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

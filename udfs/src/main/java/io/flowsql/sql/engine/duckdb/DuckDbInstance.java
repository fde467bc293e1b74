package io.flowsql.sql.engine.duckdb;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.logging.Logger;
import java.util.stream.Stream;
import javax.sql.DataSource;
import io.flowsql.sql.engine.DuckDbProfile;
import org.duckdb.DuckDBConnection;

/**
 * One DuckDB database opened once and locked down before any statement reaches it: a database file opened read-only,
 * or an in-memory database with one view per Parquet/CSV file of the declared folders; then external access off
 * (only the declared folders stay readable), extension auto-install and auto-load off, a memory limit and a bounded
 * temporary folder of its own ({@link DuckDbProfile#lockDown}), and the configuration locked so no statement can turn
 * any of it back on. Pool connections are duplicates of this one connection (same database).
 */
public final class DuckDbInstance implements DataSource, AutoCloseable {

    private final DuckDBConnection root;
    private final Path temp;

    private DuckDbInstance(DuckDBConnection root, Path temp) {
        this.root = root;
        this.temp = temp;
    }

    /** Removes the instance's own temporary folder (DuckDB's spill files, bounded by the profile's limit). */
    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // a temporary folder left behind is removed with the machine's temporary files
        }
    }

    /**
     * Opens the database at {@code url} (read-only unless in memory) for the declared database {@code id}, with one view
     * per data file of {@code folders} when in memory.
     */
    public static DuckDbInstance open(String id, String url, List<String> folders) {
        Properties props = new Properties();
        boolean inMemory = url.equals("jdbc:duckdb:") || url.equals("jdbc:duckdb::memory:");
        if (!inMemory) {
            props.setProperty("duckdb.read_only", "true");
        }
        Path temp = null;
        try {
            DuckDBConnection connection = (DuckDBConnection) new org.duckdb.DuckDBDriver().connect(url, props);
            try (Statement s = connection.createStatement()) {
                List<String> readable = new ArrayList<>();
                for (String folder : folders) {
                    Path dir = Path.of(folder).toAbsolutePath().normalize();
                    readable.add(dir + "/");
                    if (inMemory) {
                        for (Path file : dataFiles(dir)) {
                            s.execute("CREATE VIEW " + quote(viewName(file)) + " AS SELECT * FROM " + reader(file)
                                    + "('" + file.toString().replace("'", "''") + "')");
                        }
                    }
                }
                temp = Files.createTempDirectory("flowsql-duckdb-" + id.replaceAll("[^A-Za-z0-9_-]", "_") + "-");
                DuckDbProfile.lockDown(s, readable, temp);
            }
            connection.setAutoCommit(true);
            return new DuckDbInstance(connection, temp);
        } catch (SQLException | IOException e) {
            deleteQuietly(temp);
            throw new IllegalStateException("databases." + id + ": cannot open DuckDB: " + e.getMessage(), e);
        }
    }

    private static List<Path> dataFiles(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> reader(f) != null).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    private static String reader(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".parquet")) {
            return "read_parquet";
        }
        if (name.endsWith(".csv") || name.endsWith(".tsv") || name.endsWith(".csv.gz")) {
            return "read_csv_auto";
        }
        return null;
    }

    /** {@code orders.parquet} → {@code orders}. */
    static String viewName(Path file) {
        String name = file.getFileName().toString();
        int dot = name.indexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection duplicate = root.duplicate();
        // DuckDB cannot change read-only status per connection, and the pool sets it: the instance's lock decides instead
        return (Connection) java.lang.reflect.Proxy.newProxyInstance(Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    if (method.getName().equals("setReadOnly")) {
                        return null;
                    }
                    if (method.getName().equals("isReadOnly")) {
                        return false;
                    }
                    try {
                        return method.invoke(duplicate, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return getConnection();
    }

    @Override
    public void close() {
        try {
            root.close();
        } catch (SQLException e) {
            // closing: nothing left to do
        }
        deleteQuietly(temp);
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
        return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return false;
    }
}

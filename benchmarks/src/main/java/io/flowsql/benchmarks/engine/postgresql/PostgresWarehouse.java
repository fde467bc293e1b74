package io.flowsql.benchmarks.engine.postgresql;

import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.TableSchema;
import io.flowsql.sql.catalog.SqliteSchemaCatalog;
import io.flowsql.sql.load.SqliteToServerLoader;
import io.flowsql.sql.registry.DatabaseDeclaration;
import io.flowsql.sql.registry.ValueSampling;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The warehouse as a real PostgreSQL database: one embedded PostgreSQL server (no Docker), one database, one schema per
 * Spider database ({@code concert_singer.singer}, {@code singer.singer}, …), loaded by {@link SqliteToServerLoader}
 * and documented with the column descriptions Spider's tables.json gives ({@code COMMENT ON COLUMN}), as a warehouse
 * documents its columns. The data directory is kept (under {@code target/} by default), so a second run starts the
 * server on it and loads only the schemas a former run did not finish (a table {@code flowsql_warehouse.loaded}
 * records each finished one).
 */
public final class PostgresWarehouse implements AutoCloseable {
    /** The job's id of the warehouse database. */
    public static final String ID = "warehouse";

    private final EmbeddedPostgres pg;
    private final List<String> schemas;
    private final int loadedNow;
    private final long loadMillis;

    private PostgresWarehouse(EmbeddedPostgres pg, List<String> schemas, int loadedNow, long loadMillis) {
        this.pg = pg;
        this.schemas = schemas;
        this.loadedNow = loadedNow;
        this.loadMillis = loadMillis;
    }

    /** Starts PostgreSQL on {@code dataDirectory} and loads every database of {@code files} (db id → SQLite file) not loaded yet. */
    public static PostgresWarehouse open(Path dataDirectory, Map<String, Path> files, SqliteSchemaCatalog descriptions)
            throws Exception {
        Files.createDirectories(dataDirectory.getParent());
        EmbeddedPostgres pg = EmbeddedPostgres.builder().setDataDirectory(dataDirectory).setCleanDataDirectory(false)
                .setPGStartupWait(Duration.ofSeconds(120)).start();
        long start = System.nanoTime();
        int loaded = 0;
        try (Connection admin = pg.getPostgresDatabase().getConnection(); Statement s = admin.createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS flowsql_warehouse");
            s.execute("CREATE TABLE IF NOT EXISTS flowsql_warehouse.loaded (db TEXT PRIMARY KEY, tables INT, rows BIGINT)");
            Set<String> done = new HashSet<>();
            try (ResultSet rs = s.executeQuery("SELECT db FROM flowsql_warehouse.loaded")) {
                while (rs.next()) {
                    done.add(rs.getString(1));
                }
            }
            SqliteToServerLoader loader = new SqliteToServerLoader(DatabaseEngine.POSTGRESQL);
            for (Map.Entry<String, Path> f : files.entrySet()) {
                String schema = schemaOf(f.getKey());
                if (done.contains(schema)) {
                    continue;
                }
                SqliteToServerLoader.Loaded l = loader.load(f.getKey(), f.getValue(), admin, schema);
                comment(admin, schema, descriptions.schema(f.getKey()));
                try (PreparedStatement mark = admin.prepareStatement("INSERT INTO flowsql_warehouse.loaded VALUES (?, ?, ?)")) {
                    mark.setString(1, schema);
                    mark.setInt(2, l.tables());
                    mark.setLong(3, l.rows());
                    mark.executeUpdate();
                }
                loaded++;
            }
        } catch (Exception e) {
            pg.close();
            throw e;
        }
        List<String> schemas = files.keySet().stream().map(PostgresWarehouse::schemaOf).toList();
        return new PostgresWarehouse(pg, schemas, loaded, (System.nanoTime() - start) / 1_000_000);
    }

    /** A Spider database's schema in the warehouse (unquoted names fold to lower case on PostgreSQL). */
    public static String schemaOf(String dbId) {
        return dbId.toLowerCase(Locale.ROOT);
    }

    private static void comment(Connection admin, String schema, DatabaseSchema described) throws SQLException {
        try (Statement s = admin.createStatement()) {
            for (TableSchema t : described.tables()) {
                for (ColumnSchema c : t.columns()) {
                    if (c.description() != null && !c.description().isBlank()) {
                        s.addBatch("COMMENT ON COLUMN " + quote(schema) + "." + quote(t.name().toLowerCase(Locale.ROOT)) + "."
                                + quote(c.name().toLowerCase(Locale.ROOT)) + " IS '" + c.description().replace("'", "''") + "'");
                    }
                }
            }
            s.executeBatch();
        }
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    /** How the job declares the warehouse ({@code databases.warehouse.*}): every Spider schema, the server's admin user. */
    public DatabaseDeclaration declaration() {
        return new DatabaseDeclaration(ID, DatabaseEngine.POSTGRESQL, url(), "postgres", "", "", schemas, List.of(), 4, 0, 0,
                0, 0, new ValueSampling(10_000, 256L << 10, 256L << 20, 600_000));
    }

    /** The job options declaring the warehouse (docs/DATABASE.md). */
    public Map<String, String> jobOptions() {
        return Map.of("databases." + ID + ".url", url(), "databases." + ID + ".user", "postgres",
                "databases." + ID + ".schemas", String.join(",", schemas));
    }

    public String url() {
        return "jdbc:postgresql://127.0.0.1:" + pg.getPort() + "/postgres";
    }

    public Connection connection() throws SQLException {
        return pg.getPostgresDatabase().getConnection();
    }

    public List<String> schemas() {
        return schemas;
    }

    /** Schemas loaded by this run (the rest came from the kept data directory). */
    public int loadedNow() {
        return loadedNow;
    }

    public long loadMillis() {
        return loadMillis;
    }

    @Override
    public void close() throws Exception {
        pg.close();
    }
}

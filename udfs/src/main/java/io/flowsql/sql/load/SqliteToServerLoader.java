package io.flowsql.sql.load;

import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.engine.sqlite.ReadOnlyConnections;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Copies a SQLite benchmark database into PostgreSQL (one schema per database) or DuckDB (the target's main schema),
 * so the same questions can be asked of every engine. Types come from what the column holds, not only what it declares
 * (SQLite is loosely typed): integers stay BIGINT, numbers DOUBLE PRECISION, anything else (dates included, as SQLite
 * stores them) TEXT, blobs BYTEA/BLOB. Primary keys are declared when their values are unique and not null; foreign keys
 * when every value resolves to the target's key (on PostgreSQL otherwise as NOT VALID, so the catalog still shows them).
 * On PostgreSQL names are lower-cased (as unquoted names fold) so gold SQL written for SQLite finds them.
 */
public final class SqliteToServerLoader {

    /** What one load did. */
    public record Loaded(String dbId, int tables, long rows, int primaryKeys, int foreignKeys, long millis) {}

    private record Column(String name, String declared, String type) {}

    /** A foreign key to declare: {@code table.column} references {@code to.toColumn}. */
    private record ForeignKey(String table, String column, String to, String toColumn) {}

    private final DatabaseEngine engine;

    public SqliteToServerLoader(DatabaseEngine engine) {
        if (!engine.jdbc()) {
            throw new IllegalArgumentException("load into a server engine (PostgreSQL, DuckDB, MariaDB)");
        }
        this.engine = engine;
    }

    /**
     * Loads {@code sqliteFile} into {@code target}, in schema {@code schema} (created, or replaced when it exists, on
     * PostgreSQL; ignored on DuckDB, which loads into its main schema and replaces tables of the same names).
     */
    public Loaded load(String dbId, Path sqliteFile, Connection target, String schema) throws SQLException {
        long start = System.nanoTime();
        boolean autoCommit = target.getAutoCommit();
        target.setAutoCommit(false);
        try (Connection source = ReadOnlyConnections.open(sqliteFile); Statement ddl = target.createStatement()) {
            String prefix = "";
            if (engine.profile().loadsIntoOwnSchema()) {
                for (String replace : engine.profile().replaceSchema(name(schema))) {
                    ddl.execute(replace);
                }
                prefix = name(schema) + ".";
            }
            Map<String, List<Column>> tables = new LinkedHashMap<>();
            for (String table : tables(source)) {
                tables.put(table, columns(source, table));
            }
            Map<String, List<String>> keys = new LinkedHashMap<>();
            for (String table : tables.keySet()) {
                List<String> pk = primaryKey(source, table);
                if (!pk.isEmpty() && unique(source, table, pk)) {
                    keys.put(table.toLowerCase(Locale.ROOT), pk);
                }
            }
            List<ForeignKey> foreign = engine.profile().loadsIntoOwnSchema() ? foreignKeys(source, tables, keys) : List.of();
            for (Map.Entry<String, List<Column>> t : tables.entrySet()) {
                List<String> pk = keys.getOrDefault(t.getKey().toLowerCase(Locale.ROOT), List.of());
                if (!engine.profile().loadsIntoOwnSchema()) {
                    ddl.execute("DROP TABLE IF EXISTS " + name(t.getKey()));
                }
                List<String> defs = new ArrayList<>();
                t.getValue().forEach(c -> defs.add(name(c.name()) + " " + (pk.stream().anyMatch(c.name()::equalsIgnoreCase)
                        || foreign.stream().anyMatch(f -> f.table().equals(t.getKey()) && f.column().equalsIgnoreCase(c.name()))
                        ? engine.profile().keyColumnType(c.type()) : c.type())));
                if (!pk.isEmpty()) {
                    defs.add("PRIMARY KEY (" + String.join(", ", pk.stream().map(this::name).toList()) + ")");
                }
                ddl.execute("CREATE TABLE " + prefix + name(t.getKey()) + " (" + String.join(", ", defs) + ")");
            }
            long rows = 0;
            for (Map.Entry<String, List<Column>> t : tables.entrySet()) {
                rows += copyRows(source, target, prefix, t.getKey(), t.getValue());
            }
            for (ForeignKey f : foreign) {
                ddl.execute("ALTER TABLE " + prefix + name(f.table()) + " ADD FOREIGN KEY (" + name(f.column()) + ") REFERENCES "
                        + prefix + name(f.to()) + " (" + name(f.toColumn()) + ")" + engine.profile().foreignKeySuffix());
            }
            target.commit();
            return new Loaded(dbId, tables.size(), rows, keys.size(), foreign.size(), (System.nanoTime() - start) / 1_000_000);
        } catch (SQLException | RuntimeException e) {
            target.rollback();
            throw e;
        } finally {
            target.setAutoCommit(autoCommit);
        }
    }

    /**
     * The foreign keys to declare (only where the loader loads into a schema of its own: DuckDB cannot add one to an
     * existing table): SQLite's declared keys onto a single-column primary key of the same storage type. A text key
     * column gets the engine's key type (MariaDB: {@code VARCHAR(191)}, as it cannot index a whole {@code LONGTEXT}) when
     * its longest value fits ({@link io.flowsql.sql.engine.EngineProfile#keyTextLimit()}), else the key is left out.
     */
    private List<ForeignKey> foreignKeys(Connection source, Map<String, List<Column>> tables, Map<String, List<String>> keys)
            throws SQLException {
        List<ForeignKey> out = new ArrayList<>();
        for (String table : tables.keySet()) {
            try (PreparedStatement s = source.prepareStatement("SELECT \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?)")) {
                s.setString(1, table);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        String to = rs.getString(1);
                        String from = rs.getString(2);
                        List<String> targetKey = keys.get(to.toLowerCase(Locale.ROOT));
                        String toColumn = rs.getString(3) != null ? rs.getString(3)
                                : targetKey != null && targetKey.size() == 1 ? targetKey.get(0) : null;
                        if (targetKey == null || toColumn == null || targetKey.size() != 1
                                || !targetKey.get(0).equalsIgnoreCase(toColumn) || !hasColumn(tables, table, from)
                                || !tables.containsKey(actual(tables, to))
                                || !typeOf(tables, table, from).equals(typeOf(tables, actual(tables, to), toColumn))
                                || !keyFits(source, table, from, typeOf(tables, table, from))) {
                            continue;
                        }
                        out.add(new ForeignKey(table, from, actual(tables, to), toColumn));
                    }
                }
            }
        }
        return out;
    }

    /** True when the column's values fit the engine's key type (a text key's longest value within its limit). */
    private boolean keyFits(Connection source, String table, String column, String type) throws SQLException {
        if (engine.profile().keyColumnType(type).equals(type)) {
            return true;
        }
        try (Statement s = source.createStatement();
                ResultSet rs = s.executeQuery("SELECT max(length(" + quote(column) + ")) FROM " + quote(table))) {
            return !rs.next() || rs.getLong(1) <= engine.profile().keyTextLimit();
        }
    }

    private static boolean hasColumn(Map<String, List<Column>> tables, String table, String column) {
        return tables.get(table).stream().anyMatch(c -> c.name().equalsIgnoreCase(column));
    }

    private static String typeOf(Map<String, List<Column>> tables, String table, String column) {
        return tables.get(table).stream().filter(c -> c.name().equalsIgnoreCase(column)).map(Column::type).findFirst().orElse("");
    }

    private static String actual(Map<String, List<Column>> tables, String name) {
        return tables.keySet().stream().filter(name::equalsIgnoreCase).findFirst().orElse(name);
    }

    private long copyRows(Connection source, Connection target, String prefix, String table, List<Column> columns)
            throws SQLException {
        String names = String.join(", ", columns.stream().map(c -> name(c.name())).toList());
        String marks = String.join(", ", columns.stream().map(c -> "?").toList());
        long n = 0;
        try (Statement read = source.createStatement();
                ResultSet rs = read.executeQuery("SELECT * FROM " + quote(table));
                PreparedStatement insert = target.prepareStatement("INSERT INTO " + prefix + name(table) + " (" + names
                        + ") VALUES (" + marks + ")")) {
            while (rs.next()) {
                for (int i = 0; i < columns.size(); i++) {
                    insert.setObject(i + 1, convert(rs.getObject(i + 1), columns.get(i).type()));
                }
                insert.addBatch();
                if (++n % 1000 == 0) {
                    insert.executeBatch();
                }
            }
            insert.executeBatch();
        }
        return n;
    }

    private static Object convert(Object value, String type) {
        if (value == null) {
            return null;
        }
        return switch (type) {
            case "BIGINT" -> ((Number) value).longValue();
            case "DOUBLE PRECISION", "DOUBLE" -> ((Number) value).doubleValue();
            case "BYTEA", "BLOB", "LONGBLOB" -> value instanceof byte[] ? value : String.valueOf(value).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            default -> value instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.UTF_8) : String.valueOf(value);
        };
    }

    private static List<String> tables(Connection source) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Statement s = source.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    /** Each column with the type its values need: what every non-NULL value is, whatever was declared. */
    private List<Column> columns(Connection source, String table) throws SQLException {
        List<Column> out = new ArrayList<>();
        try (PreparedStatement s = source.prepareStatement("SELECT name, type FROM pragma_table_info(?) ORDER BY cid")) {
            s.setString(1, table);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(new Column(rs.getString(1), rs.getString(2), null));
                }
            }
        }
        List<Column> typed = new ArrayList<>();
        for (Column c : out) {
            typed.add(new Column(c.name(), c.declared(), type(source, table, c.name())));
        }
        return typed;
    }

    private String type(Connection source, String table, String column) throws SQLException {
        String q = quote(column);
        try (Statement s = source.createStatement(); ResultSet rs = s.executeQuery("SELECT group_concat(DISTINCT typeof(" + q
                + ")) FROM " + quote(table) + " WHERE " + q + " IS NOT NULL")) {
            String kinds = rs.next() && rs.getString(1) != null ? rs.getString(1) : "text";
            boolean real = kinds.equals("real") || kinds.equals("integer,real") || kinds.equals("real,integer");
            return engine.profile().columnType(real ? "real" : kinds);
        }
    }

    private static List<String> primaryKey(Connection source, String table) throws SQLException {
        Map<Integer, String> bySeq = new java.util.TreeMap<>();
        try (PreparedStatement s = source.prepareStatement("SELECT name, pk FROM pragma_table_info(?) WHERE pk > 0")) {
            s.setString(1, table);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    bySeq.put(rs.getInt(2), rs.getString(1));
                }
            }
        }
        return List.copyOf(bySeq.values());
    }

    private static boolean unique(Connection source, String table, List<String> pk) throws SQLException {
        String cols = String.join(", ", pk.stream().map(SqliteToServerLoader::quote).toList());
        String notNull = String.join(" AND ", pk.stream().map(c -> quote(c) + " IS NOT NULL").toList());
        try (Statement s = source.createStatement(); ResultSet rs = s.executeQuery("SELECT (SELECT COUNT(*) FROM " + quote(table)
                + ") = (SELECT COUNT(*) FROM (SELECT DISTINCT " + cols + " FROM " + quote(table) + " WHERE " + notNull + "))")) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    /** A name on the target: lower-cased where the engine loads into its own schema (PostgreSQL: unquoted names fold), always quoted. */
    String name(String identifier) {
        return engine.profile().quoteName(engine.profile().loadsIntoOwnSchema() ? identifier.toLowerCase(Locale.ROOT) : identifier);
    }

    static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}

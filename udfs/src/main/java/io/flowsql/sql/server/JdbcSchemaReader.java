package io.flowsql.sql.server;

import io.flowsql.sql.catalog.*;

import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.engine.EngineProfile;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ForeignKey;
import io.flowsql.sql.TableSchema;
import io.flowsql.sql.registry.DatabaseDeclaration;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads one live PostgreSQL, DuckDB or MariaDB catalog through JDBC metadata: tables and views of every non-system schema (or
 * the declared ones), columns with their types and nullability, primary and foreign keys, table and column comments
 * as descriptions, and value examples from a bounded sample of each column (MAG-SQL's rules, as on SQLite). A table
 * outside the engine's default schema is named {@code schema.table}.
 */
final class JdbcSchemaReader {

    private static final String[] TABLE_TYPES = {"TABLE", "BASE TABLE", "VIEW", "MATERIALIZED VIEW", "FOREIGN TABLE",
        "PARTITIONED TABLE"};

    private record Located(String catalog, String schema, String table, String name, String remarks) {}

    private final ValueExamplePolicy policy;

    JdbcSchemaReader(ValueExamplePolicy policy) {
        this.policy = policy;
    }

    DatabaseSchema read(DatabaseDeclaration d, Connection connection) throws SQLException {
        DatabaseMetaData meta = connection.getMetaData();
        List<Located> located = tables(d, meta);
        Map<String, Located> byQualified = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        located.forEach(t -> byQualified.put(t.schema() + "." + t.table(), t));
        List<ForeignKey> foreignKeys = new ArrayList<>();
        Set<String> keyColumns = new HashSet<>();
        for (Located t : located) {
            try (ResultSet rs = meta.getImportedKeys(t.catalog(), t.schema(), t.table())) {
                while (rs.next()) {
                    Located target = byQualified.get(rs.getString("PKTABLE_SCHEM") + "." + rs.getString("PKTABLE_NAME"));
                    if (target == null) {
                        continue;
                    }
                    ForeignKey fk = new ForeignKey(new ColumnRef(t.name(), rs.getString("FKCOLUMN_NAME")),
                            new ColumnRef(target.name(), rs.getString("PKCOLUMN_NAME")));
                    foreignKeys.add(fk);
                    keyColumns.add(lower(fk.from()));
                    keyColumns.add(lower(fk.to()));
                }
            }
        }
        List<TableSchema> tables = new ArrayList<>();
        for (Located t : located) {
            List<String> pk = primaryKey(meta, t);
            List<ColumnSchema> columns = new ArrayList<>();
            try (ResultSet rs = meta.getColumns(t.catalog(), t.schema(), t.table(), "%")) {
                while (rs.next()) {
                    String column = rs.getString("COLUMN_NAME");
                    String type = String.valueOf(rs.getString("TYPE_NAME")).replace("\"", "");
                    boolean isPk = pk.stream().anyMatch(column::equalsIgnoreCase);
                    boolean nullable = !"NO".equals(rs.getString("IS_NULLABLE")) && !isPk;
                    String remarks = rs.getString("REMARKS");
                    columns.add(new ColumnSchema(t.name(), column, type, remarks, nullable, isPk, List.of()));
                }
            }
            List<ColumnSchema> withExamples = new ArrayList<>();
            for (ColumnSchema c : columns) {
                boolean isKey = c.primaryKey() || keyColumns.contains(lower(c.ref()));
                List<String> examples = policy.skipsByName(c.name(), isKey) ? List.of()
                        : examples(d, connection, t, c.name(), c.type());
                withExamples.add(new ColumnSchema(c.table(), c.name(), c.type(), c.description(), c.nullable(),
                        c.primaryKey(), examples));
            }
            tables.add(new TableSchema(t.name(), t.remarks(), withExamples, pk));
        }
        return new DatabaseSchema(d.id(), tables, foreignKeys);
    }

    private List<Located> tables(DatabaseDeclaration d, DatabaseMetaData meta) throws SQLException {
        List<Located> out = new ArrayList<>();
        try (ResultSet rs = meta.getTables(null, null, "%", TABLE_TYPES)) {
            while (rs.next()) {
                String catalog = rs.getString("TABLE_CAT");
                String schema = rs.getString("TABLE_SCHEM");
                if (schema == null || d.engine().profile().systemSchema(catalog, schema)) {
                    continue;
                }
                if (!d.schemas().isEmpty() && d.schemas().stream().noneMatch(schema::equalsIgnoreCase)) {
                    continue;
                }
                String table = rs.getString("TABLE_NAME");
                String name = schema.equalsIgnoreCase(d.defaultSchema()) ? table : schema + "." + table;
                out.add(new Located(catalog, schema, table, name, rs.getString("REMARKS")));
            }
        }
        out.sort((a, b) -> a.name().compareToIgnoreCase(b.name()));
        return out;
    }

    private static List<String> primaryKey(DatabaseMetaData meta, Located t) throws SQLException {
        Map<Integer, String> bySeq = new TreeMap<>();
        try (ResultSet rs = meta.getPrimaryKeys(t.catalog(), t.schema(), t.table())) {
            while (rs.next()) {
                bySeq.put(rs.getInt("KEY_SEQ"), rs.getString("COLUMN_NAME"));
            }
        }
        return List.copyOf(bySeq.values());
    }

    /** The most frequent values in a bounded sample of the column (never a full scan). */
    private List<String> examples(DatabaseDeclaration d, Connection connection, Located t, String column, String type)
            throws SQLException {
        EngineProfile profile = d.engine().profile();
        String source = "(SELECT " + profile.quoteName(column) + " AS v FROM " + profile.quoteName(t.schema()) + "."
                + profile.quoteName(t.table()) + " LIMIT " + d.values().rowsPerColumn() + ") s";
        String text = profile.textCast("v");
        long distinct;
        List<String> frequent = new ArrayList<>();
        try (Statement s = connection.createStatement()) {
            s.setQueryTimeout(10);
            try (ResultSet rs = s.executeQuery("SELECT COUNT(DISTINCT v) FROM " + source)) {
                distinct = rs.next() ? rs.getLong(1) : 0;
            }
            try (ResultSet rs = s.executeQuery("SELECT " + text + ", COUNT(*) AS n FROM " + source + " WHERE v IS NOT NULL AND trim("
                    + text + ") <> '' GROUP BY " + text + " ORDER BY n DESC, 1 LIMIT " + (policy.maxExamples() + 3))) {
                while (rs.next()) {
                    frequent.add(rs.getString(1));
                }
            }
        } catch (SQLException e) {
            rollbackQuietly(d, connection);
            return List.of(); // a type that does not cast to text (e.g. a blob): no examples
        }
        return policy.choose(type, frequent, distinct);
    }

    private static void rollbackQuietly(DatabaseDeclaration d, Connection connection) {
        if (d.engine().profile().failedStatementAbortsTransaction()) {
            try {
                connection.rollback();
            } catch (SQLException e) {
                // the reader's next query fails too and ends the read
            }
        }
    }

    private static String lower(ColumnRef ref) {
        return (ref.table() + "." + ref.column()).toLowerCase(Locale.ROOT);
    }
}

package io.flowsql.sql.catalog;

import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ForeignKey;
import io.flowsql.sql.TableSchema;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads one database's schema from SQLite's pragmas and merges what tables.json and BIRD's CSVs add
 * (natural names, descriptions, curated keys); value examples follow a {@link ValueExamplePolicy}.
 */
final class SchemaReader {

    /** One column as the pragmas report it. */
    private record RawColumn(String name, String type, boolean notNull, int pkPosition) {}

    private final ValueExamplePolicy policy;

    SchemaReader(ValueExamplePolicy policy) {
        this.policy = policy;
    }

    DatabaseSchema read(String dbId, Connection connection, Optional<SpiderTablesJson.Entry> spider,
            BirdColumnDescriptions bird) throws SQLException {
        Map<String, List<RawColumn>> raw = new LinkedHashMap<>();
        for (String table : tableNames(connection)) {
            raw.put(table, columns(connection, table));
        }
        Map<String, List<String>> primaryKeys = primaryKeys(raw, spider);
        List<ForeignKey> foreignKeys = foreignKeys(connection, raw, primaryKeys, spider);
        Set<String> keyColumns = new LinkedHashSet<>();
        foreignKeys.forEach(fk -> {
            keyColumns.add(lower(fk.from()));
            keyColumns.add(lower(fk.to()));
        });
        List<TableSchema> tables = new ArrayList<>();
        for (Map.Entry<String, List<RawColumn>> table : raw.entrySet()) {
            String name = table.getKey();
            List<String> pk = primaryKeys.getOrDefault(name, List.of());
            List<ColumnSchema> columns = new ArrayList<>();
            for (RawColumn c : table.getValue()) {
                boolean isPk = pk.stream().anyMatch(p -> p.equalsIgnoreCase(c.name()));
                boolean isKey = isPk || keyColumns.contains(lower(new ColumnRef(name, c.name())));
                String type = c.type().isEmpty() ? spiderType(spider, name, c.name()) : c.type();
                String description = joinDescriptions(spiderColumnName(spider, name, c.name()), bird.describe(name, c.name()));
                List<String> examples = policy.skipsByName(c.name(), isKey) ? List.of() : examples(connection, name, c.name(), type);
                columns.add(new ColumnSchema(name, c.name(), type, description, !c.notNull() && !isPk, isPk, examples));
            }
            tables.add(new TableSchema(name, spiderTableName(spider, name), columns, pk));
        }
        return new DatabaseSchema(dbId, tables, foreignKeys);
    }

    private static List<String> tableNames(Connection connection) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' "
                        + "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    private static List<RawColumn> columns(Connection connection, String table) throws SQLException {
        List<RawColumn> columns = new ArrayList<>();
        try (PreparedStatement s = connection.prepareStatement("SELECT name, type, \"notnull\", pk FROM pragma_table_info(?)")) {
            s.setString(1, table);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    columns.add(new RawColumn(rs.getString(1), rs.getString(2) == null ? "" : rs.getString(2).trim(),
                            rs.getInt(3) != 0, rs.getInt(4)));
                }
            }
        }
        return columns;
    }

    private static Map<String, List<String>> primaryKeys(Map<String, List<RawColumn>> raw,
            Optional<SpiderTablesJson.Entry> spider) {
        Map<String, List<String>> keys = new LinkedHashMap<>();
        raw.forEach((table, columns) -> keys.put(table, columns.stream().filter(c -> c.pkPosition() > 0)
                .sorted(java.util.Comparator.comparingInt(RawColumn::pkPosition)).map(RawColumn::name).toList()));
        spider.ifPresent(entry -> {
            for (int index : entry.primaryKeys()) {
                resolve(raw, entry, index).ifPresent(ref -> {
                    List<String> current = keys.get(ref.table());
                    if (current.stream().noneMatch(c -> c.equalsIgnoreCase(ref.column()))) {
                        List<String> merged = new ArrayList<>(current);
                        merged.add(ref.column());
                        keys.put(ref.table(), merged);
                    }
                });
            }
        });
        return keys;
    }

    private static List<ForeignKey> foreignKeys(Connection connection, Map<String, List<RawColumn>> raw,
            Map<String, List<String>> primaryKeys, Optional<SpiderTablesJson.Entry> spider) throws SQLException {
        Map<String, ForeignKey> keys = new LinkedHashMap<>();
        for (String table : raw.keySet()) {
            try (PreparedStatement s = connection.prepareStatement("SELECT \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?)")) {
                s.setString(1, table);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        Optional<String> target = actualTable(raw, rs.getString(1));
                        Optional<String> from = actualColumn(raw, table, rs.getString(2));
                        if (target.isEmpty() || from.isEmpty()) {
                            continue;
                        }
                        String to = rs.getString(3);
                        if (to == null || to.isEmpty()) {
                            List<String> pk = primaryKeys.getOrDefault(target.get(), List.of());
                            to = pk.isEmpty() ? null : pk.get(0);
                        }
                        Optional<String> toColumn = actualColumn(raw, target.get(), to);
                        toColumn.ifPresent(t -> add(keys, new ForeignKey(new ColumnRef(table, from.get()), new ColumnRef(target.get(), t))));
                    }
                }
            }
        }
        spider.ifPresent(entry -> {
            for (int[] fk : entry.foreignKeys()) {
                Optional<ColumnRef> from = resolve(raw, entry, fk[0]);
                Optional<ColumnRef> to = resolve(raw, entry, fk[1]);
                if (from.isPresent() && to.isPresent()) {
                    add(keys, new ForeignKey(from.get(), to.get()));
                }
            }
        });
        return List.copyOf(keys.values());
    }

    private static void add(Map<String, ForeignKey> keys, ForeignKey fk) {
        keys.putIfAbsent(lower(fk.from()) + "->" + lower(fk.to()), fk);
    }

    /** A tables.json column index as an actual (table, column) of the SQLite file, when both exist there. */
    private static Optional<ColumnRef> resolve(Map<String, List<RawColumn>> raw, SpiderTablesJson.Entry entry, int index) {
        if (index <= 0 || index >= entry.columns().size()) {
            return Optional.empty();
        }
        SpiderTablesJson.Column column = entry.columns().get(index);
        if (column.tableIndex() < 0 || column.tableIndex() >= entry.tablesOriginal().size()) {
            return Optional.empty();
        }
        Optional<String> table = actualTable(raw, entry.tablesOriginal().get(column.tableIndex()));
        return table.flatMap(t -> actualColumn(raw, t, column.original()).map(c -> new ColumnRef(t, c)));
    }

    private static Optional<String> actualTable(Map<String, List<RawColumn>> raw, String name) {
        return name == null ? Optional.empty() : raw.keySet().stream().filter(t -> t.equalsIgnoreCase(name)).findFirst();
    }

    private static Optional<String> actualColumn(Map<String, List<RawColumn>> raw, String table, String name) {
        if (name == null) {
            return Optional.empty();
        }
        return raw.getOrDefault(table, List.of()).stream().map(RawColumn::name).filter(c -> c.equalsIgnoreCase(name)).findFirst();
    }

    private List<String> examples(Connection connection, String table, String column, String type) throws SQLException {
        String t = quote(table);
        String c = quote(column);
        long distinct;
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(DISTINCT " + c + ") FROM " + t)) {
            distinct = rs.next() ? rs.getLong(1) : 0;
        }
        List<String> frequent = new ArrayList<>();
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT " + c + ", COUNT(*) AS n FROM " + t + " WHERE " + c + " IS NOT NULL "
                        + "AND typeof(" + c + ") <> 'blob' AND trim(" + c + ") <> '' GROUP BY " + c
                        + " ORDER BY n DESC, " + c + " LIMIT " + (policy.maxExamples() + 3))) {
            while (rs.next()) {
                frequent.add(rs.getString(1));
            }
        }
        return policy.choose(type, frequent, distinct);
    }

    static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    private static String spiderTableName(Optional<SpiderTablesJson.Entry> spider, String table) {
        return spider.map(e -> {
            for (int i = 0; i < e.tablesOriginal().size(); i++) {
                if (e.tablesOriginal().get(i).equalsIgnoreCase(table) && i < e.tablesNatural().size()) {
                    return differentFrom(e.tablesNatural().get(i), table);
                }
            }
            return "";
        }).orElse("");
    }

    private static String spiderColumnName(Optional<SpiderTablesJson.Entry> spider, String table, String column) {
        return spider.flatMap(e -> e.columns().stream()
                .filter(c -> c.tableIndex() >= 0 && c.tableIndex() < e.tablesOriginal().size()
                        && e.tablesOriginal().get(c.tableIndex()).equalsIgnoreCase(table) && c.original().equalsIgnoreCase(column))
                .findFirst().map(c -> differentFrom(c.natural(), column))).orElse("");
    }

    private static String spiderType(Optional<SpiderTablesJson.Entry> spider, String table, String column) {
        return spider.flatMap(e -> e.columns().stream()
                .filter(c -> c.tableIndex() >= 0 && c.tableIndex() < e.tablesOriginal().size()
                        && e.tablesOriginal().get(c.tableIndex()).equalsIgnoreCase(table) && c.original().equalsIgnoreCase(column))
                .findFirst().map(SpiderTablesJson.Column::type)).orElse("");
    }

    /** The natural name, unless it only restates the original one. */
    private static String differentFrom(String natural, String original) {
        String a = natural.toLowerCase(Locale.ROOT).replaceAll("[_\\s]+", " ").trim();
        String b = original.toLowerCase(Locale.ROOT).replaceAll("[_\\s]+", " ").trim();
        return a.equals(b) ? "" : natural;
    }

    private static String joinDescriptions(String spider, String bird) {
        if (bird.isEmpty()) {
            return spider;
        }
        return spider.isEmpty() || bird.toLowerCase(Locale.ROOT).contains(spider.toLowerCase(Locale.ROOT)) ? bird : spider + "; " + bird;
    }

    private static String lower(ColumnRef ref) {
        return ref.toString().toLowerCase(Locale.ROOT);
    }
}

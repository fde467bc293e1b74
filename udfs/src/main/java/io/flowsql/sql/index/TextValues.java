package io.flowsql.sql.index;

import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.engine.sqlite.ReadOnlyConnections;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Every distinct text value of a database with its column, loaded once: what value retrieval searches.
 * Values shorter than {@code minLength} or longer than {@code maxLength} are left out (too ambiguous to
 * match, or prose nobody quotes in a question).
 */
public record TextValues(List<ColumnRef> columns, int[] columnOfValue, String[] values) {

    public int size() {
        return values.length;
    }

    public static TextValues load(Path sqliteFile, int minLength, int maxLength) {
        List<ColumnRef> columns = new ArrayList<>();
        List<Integer> owners = new ArrayList<>();
        List<String> values = new ArrayList<>();
        try (Connection connection = ReadOnlyConnections.open(sqliteFile)) {
            for (String table : tables(connection)) {
                for (String column : columns(connection, table)) {
                    int columnId = columns.size();
                    columns.add(new ColumnRef(table, column));
                    String q = quote(column);
                    try (Statement s = connection.createStatement();
                            ResultSet rs = s.executeQuery("SELECT DISTINCT " + q + " FROM " + quote(table) + " WHERE typeof(" + q
                                    + ") = 'text' AND length(" + q + ") BETWEEN " + minLength + " AND " + maxLength)) {
                        while (rs.next()) {
                            values.add(rs.getString(1));
                            owners.add(columnId);
                        }
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read values of " + sqliteFile + ": " + e.getMessage(), e);
        }
        return new TextValues(List.copyOf(columns), owners.stream().mapToInt(Integer::intValue).toArray(),
                values.toArray(new String[0]));
    }

    private static List<String> tables(Connection connection) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    private static List<String> columns(Connection connection, String table) throws SQLException {
        List<String> names = new ArrayList<>();
        try (PreparedStatement s = connection.prepareStatement("SELECT name FROM pragma_table_info(?)")) {
            s.setString(1, table);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
        }
        return names;
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}

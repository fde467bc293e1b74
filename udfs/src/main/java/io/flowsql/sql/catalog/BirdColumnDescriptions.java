package io.flowsql.sql.catalog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * BIRD's {@code database_description/<table>.csv} files (original_column_name, column_name,
 * column_description, data_format, value_description) turned into one description per column.
 */
public final class BirdColumnDescriptions {

    private final Map<String, String> byTableAndColumn;

    private BirdColumnDescriptions(Map<String, String> byTableAndColumn) {
        this.byTableAndColumn = byTableAndColumn;
    }

    public static BirdColumnDescriptions none() {
        return new BirdColumnDescriptions(Map.of());
    }

    public static BirdColumnDescriptions read(Path folder) {
        Map<String, String> out = new HashMap<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.filter(f -> f.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".csv")).toList()) {
                String table = file.getFileName().toString().replaceFirst("(?i)\\.csv$", "");
                readTable(table, Files.readAllBytes(file), out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + folder, e);
        }
        return new BirdColumnDescriptions(out);
    }

    /** The description, or "" when the CSVs say nothing about this column. */
    public String describe(String table, String column) {
        return byTableAndColumn.getOrDefault(key(table, column), "");
    }

    private static void readTable(String table, byte[] bytes, Map<String, String> out) {
        List<List<String>> rows = LenientCsv.parse(LenientCsv.decode(bytes));
        if (rows.isEmpty()) {
            return;
        }
        List<String> header = rows.get(0).stream().map(h -> h.toLowerCase(Locale.ROOT).trim()).toList();
        int original = header.indexOf("original_column_name");
        int name = header.indexOf("column_name");
        int description = header.indexOf("column_description");
        int values = header.indexOf("value_description");
        if (original < 0) {
            return;
        }
        for (List<String> row : rows.subList(1, rows.size())) {
            String column = field(row, original);
            if (column.isEmpty()) {
                continue;
            }
            List<String> parts = new ArrayList<>();
            String expanded = field(row, name);
            if (!expanded.isEmpty() && !expanded.equalsIgnoreCase(column)) {
                parts.add(expanded);
            }
            String text = field(row, description);
            if (!text.isEmpty() && !text.equalsIgnoreCase(expanded)) {
                parts.add(text);
            }
            String valueText = field(row, values);
            if (!valueText.isEmpty()) {
                parts.add("values: " + valueText.replaceAll("\\s+", " "));
            }
            out.put(key(table, column), String.join("; ", parts));
        }
    }

    private static String field(List<String> row, int index) {
        return index >= 0 && index < row.size() ? row.get(index).trim() : "";
    }

    private static String key(String table, String column) {
        return table.toLowerCase(Locale.ROOT) + "\u0000" + column.toLowerCase(Locale.ROOT);
    }
}

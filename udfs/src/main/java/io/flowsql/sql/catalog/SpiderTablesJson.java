package io.flowsql.sql.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Spider's (and BIRD's) {@code tables.json}: the curated keys and the natural-language names of
 * tables and columns, used to cross-check the SQLite pragmas and to describe columns.
 */
public final class SpiderTablesJson {

    /** One column as tables.json lists it. */
    public record Column(int tableIndex, String original, String natural, String type) {}

    /** One database's entry; key lists hold column indexes into {@code columns}. */
    public record Entry(String dbId, List<String> tablesOriginal, List<String> tablesNatural, List<Column> columns,
            List<Integer> primaryKeys, List<int[]> foreignKeys) {}

    private final Map<String, Entry> entries;

    private SpiderTablesJson(Map<String, Entry> entries) {
        this.entries = entries;
    }

    public static SpiderTablesJson load(List<Path> files) {
        ObjectMapper mapper = new ObjectMapper();
        Map<String, Entry> entries = new HashMap<>();
        for (Path file : files) {
            try {
                for (JsonNode db : mapper.readTree(file.toFile())) {
                    Entry entry = entry(db);
                    entries.putIfAbsent(entry.dbId(), entry);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }
        return new SpiderTablesJson(entries);
    }

    public Optional<Entry> entry(String dbId) {
        return Optional.ofNullable(entries.get(dbId));
    }

    private static Entry entry(JsonNode db) {
        List<Column> columns = new ArrayList<>();
        JsonNode original = db.path("column_names_original");
        JsonNode natural = db.path("column_names");
        JsonNode types = db.path("column_types");
        for (int i = 0; i < original.size(); i++) {
            columns.add(new Column(original.get(i).get(0).asInt(), original.get(i).get(1).asText(),
                    natural.path(i).path(1).asText(""), types.path(i).asText("")));
        }
        List<Integer> primaryKeys = new ArrayList<>();
        for (JsonNode pk : db.path("primary_keys")) {
            if (pk.isArray()) {
                pk.forEach(p -> primaryKeys.add(p.asInt()));
            } else {
                primaryKeys.add(pk.asInt());
            }
        }
        List<int[]> foreignKeys = new ArrayList<>();
        for (JsonNode fk : db.path("foreign_keys")) {
            foreignKeys.add(new int[] {fk.get(0).asInt(), fk.get(1).asInt()});
        }
        return new Entry(db.path("db_id").asText(), texts(db.path("table_names_original")), texts(db.path("table_names")),
                columns, primaryKeys, foreignKeys);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}

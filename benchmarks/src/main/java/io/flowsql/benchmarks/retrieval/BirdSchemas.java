package io.flowsql.benchmarks.retrieval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.benchmarks.retrieval.RetrievalMeasure.Asked;
import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ForeignKey;
import io.flowsql.sql.TableSchema;
import io.flowsql.sql.catalog.SpiderTablesJson;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * BIRD mini-dev's eleven databases as schemas a warehouse never saw: their tables and keys from {@code dev_tables.json}
 * (no SQLite files here, so no rows and no values), each column described by BIRD's natural-language column name, in
 * namespaces {@code bird_<db>} (so {@code bird_formula_1} collides table by table with Spider's {@code formula_1}).
 */
final class BirdSchemas {
    static final String PREFIX = "bird_";

    private BirdSchemas() {}

    static Map<String, DatabaseSchema> load(Path data) throws IOException {
        Path file = data.resolve("bird-minidev/dev_tables.json");
        SpiderTablesJson json = SpiderTablesJson.load(List.of(file));
        Map<String, DatabaseSchema> out = new LinkedHashMap<>();
        for (JsonNode db : new ObjectMapper().readTree(file.toFile())) {
            SpiderTablesJson.Entry e = json.entry(db.get("db_id").asText()).orElseThrow();
            List<List<ColumnSchema>> columns = new ArrayList<>();
            e.tablesOriginal().forEach(t -> columns.add(new ArrayList<>()));
            List<List<String>> keys = new ArrayList<>();
            e.tablesOriginal().forEach(t -> keys.add(new ArrayList<>()));
            for (int i = 0; i < e.columns().size(); i++) {
                SpiderTablesJson.Column c = e.columns().get(i);
                if (c.tableIndex() < 0) {
                    continue;  // the "*" column
                }
                boolean pk = e.primaryKeys().contains(i);
                String table = e.tablesOriginal().get(c.tableIndex());
                columns.get(c.tableIndex()).add(new ColumnSchema(table, c.original(), c.type(), c.natural(), !pk, pk, List.of()));
                if (pk) {
                    keys.get(c.tableIndex()).add(c.original());
                }
            }
            List<TableSchema> tables = new ArrayList<>();
            for (int t = 0; t < e.tablesOriginal().size(); t++) {
                tables.add(new TableSchema(e.tablesOriginal().get(t), "", columns.get(t), keys.get(t)));
            }
            List<ForeignKey> fks = new ArrayList<>();
            for (int[] fk : e.foreignKeys()) {
                fks.add(new ForeignKey(ref(e, fk[0]), ref(e, fk[1])));
            }
            out.put(PREFIX + e.dbId().toLowerCase(java.util.Locale.ROOT), new DatabaseSchema(e.dbId(), tables, fks));
        }
        return out;
    }

    /** BIRD mini-dev's questions with their evidence, asked of their {@code bird_} namespace (none held out: never tuned on). */
    static List<Asked> questions(Path data) throws IOException {
        List<Asked> out = new ArrayList<>();
        for (JsonNode q : new ObjectMapper().readTree(data.resolve("bird-minidev/mini_dev_sqlite.json").toFile())) {
            out.add(new Asked("b" + q.get("question_id").asText(), q.get("question").asText(), q.path("evidence").asText(""),
                    PREFIX + q.get("db_id").asText().toLowerCase(java.util.Locale.ROOT), q.get("SQL").asText(), false));
        }
        return out;
    }

    private static ColumnRef ref(SpiderTablesJson.Entry e, int column) {
        SpiderTablesJson.Column c = e.columns().get(column);
        return new ColumnRef(e.tablesOriginal().get(c.tableIndex()), c.original());
    }
}

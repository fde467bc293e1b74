package io.flowsql.benchmarks.learning;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.events.EventJson;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Spider dev's questions with their gold SQL, by database (databases present on disk, sorted by name). */
record SpiderPairs(Map<String, List<Item>> byDb) {
    record Item(String id, String dbId, String question, String sql) {}

    static SpiderPairs load(Path sharedData) throws IOException {
        Map<String, List<Item>> byDb = new TreeMap<>();
        int i = 0;
        for (JsonNode item : EventJson.mapper().readTree(sharedData.resolve("spider/dev.json").toFile())) {
            String db = item.path("db_id").asText();
            int n = i++;
            if (Files.isRegularFile(sharedData.resolve("spider/database").resolve(db).resolve(db + ".sqlite"))) {
                byDb.computeIfAbsent(db, k -> new ArrayList<>())
                        .add(new Item("spider-dev-" + n, db, item.path("question").asText(), item.path("query").asText()));
            }
        }
        return new SpiderPairs(byDb);
    }

    /** The first (or second) half of the databases by name, each with at most {@code perDb} items; {@code dbs} databases in all. */
    Map<String, List<Item>> half(boolean first, int dbs, int perDb) {
        List<String> names = new ArrayList<>(byDb.keySet());
        int mid = names.size() / 2;
        List<String> side = first ? names.subList(0, mid) : names.subList(mid, names.size());
        Map<String, List<Item>> out = new LinkedHashMap<>();
        for (String db : side.subList(0, Math.min(dbs, side.size()))) {
            List<Item> items = byDb.get(db);
            out.put(db, items.subList(0, Math.min(perDb, items.size())));
        }
        return out;
    }
}

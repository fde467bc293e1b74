package io.flowsql.benchmarks.soak;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.events.QuestionOptions;
import io.flowsql.sql.engine.DatabaseEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The soak's questions: Spider dev questions of the databases each engine holds (PostgreSQL and DuckDB one database
 * each, SQLite all the others), in a seeded random order per engine, mixed so that every run of
 * {@code presets × engines} consecutive questions asks every preset on every engine once.
 */
final class SoakQuestions {
    /** A Spider question: its database and its text. */
    record Item(String db, String question) {}

    /** The engine of every Spider database the soak does not load into a server. */
    private static final String EMBEDDED = DatabaseEngine.embedded().id();

    private SoakQuestions() {}

    /**
     * The usable Spider dev questions (their SQLite file present) by engine: the database of each entry of
     * {@code serverDatabases} (engine → database) goes to that engine, every other one to the embedded engine.
     */
    static Map<String, List<Item>> pools(Path sharedData, Map<String, String> serverDatabases, long seed) throws IOException {
        Map<String, List<Item>> pools = new LinkedHashMap<>();
        pools.put(EMBEDDED, new ArrayList<>());
        serverDatabases.keySet().forEach(engine -> pools.put(engine, new ArrayList<>()));
        for (JsonNode entry : EventJson.mapper().readTree(sharedData.resolve("spider/dev.json").toFile())) {
            String db = entry.path("db_id").asText();
            if (Files.isRegularFile(sharedData.resolve("spider/database").resolve(db).resolve(db + ".sqlite"))) {
                String engine = serverDatabases.entrySet().stream().filter(e -> e.getValue().equals(db))
                        .map(Map.Entry::getKey).findFirst().orElse(EMBEDDED);
                pools.get(engine).add(new Item(db, entry.path("question").asText()));
            }
        }
        Random random = new Random(seed);
        pools.forEach((engine, items) -> {
            if (items.isEmpty()) {
                throw new IllegalStateException("no Spider dev question for engine " + engine + " under " + sharedData);
            }
            Collections.shuffle(items, random);
        });
        return pools;
    }

    /**
     * {@code count} questions, each its own dialogue: question {@code i} asks preset {@code i mod P} on engine
     * {@code (i / P) mod E}, taking that engine's items in turn (again from the first once all were asked).
     */
    static List<QuestionEvent> mix(Map<String, List<Item>> pools, List<String> presets, int count) {
        List<String> engines = List.copyOf(pools.keySet());
        Map<String, Integer> taken = new LinkedHashMap<>();
        List<QuestionEvent> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String preset = presets.get(i % presets.size());
            String engine = engines.get(i / presets.size() % engines.size());
            List<Item> items = pools.get(engine);
            Item item = items.get((taken.merge(engine, 1, Integer::sum) - 1) % items.size());
            QuestionEvent q = new QuestionEvent("soak-" + i, "soak-dialogue-" + i, item.db(), item.question());
            q.options = new QuestionOptions();
            q.options.strategy = preset;
            out.add(q);
        }
        return out;
    }
}

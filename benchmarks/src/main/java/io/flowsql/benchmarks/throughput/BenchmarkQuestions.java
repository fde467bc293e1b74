package io.flowsql.benchmarks.throughput;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.events.QuestionOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Spider dev questions whose database is present, each its own dialogue, asking for one preset; repeated when more are wanted. */
public final class BenchmarkQuestions {
    private BenchmarkQuestions() {}

    public static List<QuestionEvent> of(Path sharedData, String preset, int count, String idPrefix) throws IOException {
        return of(sharedData, preset, count, idPrefix, 0);
    }

    /**
     * As {@link #of}, starting at the {@code from}-th usable question (wrapping): consecutive calls with {@code from}
     * advanced by the questions taken walk the whole list, every database in turn (the warm-up's batches).
     */
    public static List<QuestionEvent> of(Path sharedData, String preset, int count, String idPrefix, int from) throws IOException {
        return take(usable(sharedData), preset, count, idPrefix, from);
    }

    /** How many usable questions there are: this many taken one after another ask about every database once at least. */
    public static int usableCount(Path sharedData) throws IOException {
        return usable(sharedData).size();
    }

    /** As {@link #of}, from the usable questions in a seeded random order, so every database turns up and mixes with the others. */
    public static List<QuestionEvent> shuffled(Path sharedData, String preset, int count, String idPrefix, long seed) throws IOException {
        List<JsonNode> usable = usable(sharedData);
        java.util.Collections.shuffle(usable, new java.util.Random(seed));
        return take(usable, preset, count, idPrefix, 0);
    }

    private static List<JsonNode> usable(Path sharedData) throws IOException {
        List<JsonNode> usable = new ArrayList<>();
        for (JsonNode item : EventJson.mapper().readTree(sharedData.resolve("spider/dev.json").toFile())) {
            String db = item.path("db_id").asText();
            if (Files.isRegularFile(sharedData.resolve("spider/database").resolve(db).resolve(db + ".sqlite"))) {
                usable.add(item);
            }
        }
        return usable;
    }

    private static List<QuestionEvent> take(List<JsonNode> usable, String preset, int count, String idPrefix, int from) {
        List<QuestionEvent> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            JsonNode item = usable.get(Math.floorMod(from + i, usable.size()));
            QuestionEvent q = new QuestionEvent(idPrefix + i, idPrefix + "dialogue-" + i, item.path("db_id").asText(),
                    item.path("question").asText());
            q.options = new QuestionOptions();
            q.options.strategy = preset;
            out.add(q);
        }
        return out;
    }
}

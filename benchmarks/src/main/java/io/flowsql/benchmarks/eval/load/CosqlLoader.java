package io.flowsql.benchmarks.eval.load;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads typed multi-turn dialogues in the {@code cosql_dev.json} / MMSQL layout: each user turn (with its
 * question type) is answered by the system turn that follows it, whose {@code query} is the gold SQL; SQL turns get
 * Spider's hardness levels, as CoSQL reports them.
 */
public final class CosqlLoader {
    private final SpiderHardness hardness = new SpiderHardness();

    /** @param questionsFile e.g. {@code cosql/cosql_dev.json}; @param databaseRoot Spider's {@code database/} folder */
    public Benchmark load(Path questionsFile, Path databaseRoot) {
        JsonNode root = JsonFiles.read(questionsFile);
        List<BenchmarkItem> items = new ArrayList<>();
        int dialogue = 0;
        int ordinal = 0;
        for (JsonNode d : root) {
            String dbId = JsonFiles.text(d, "db_name");
            String dialogueId = "d" + dialogue;
            JsonNode turns = d.get("turns");
            int turn = 0;
            for (int i = 0; i < turns.size(); i++) {
                JsonNode t = turns.get(i);
                if (!t.path("isUser").asBoolean()) {
                    continue;
                }
                JsonNode next = i + 1 < turns.size() ? turns.get(i + 1) : null;
                String gold = next != null && !next.path("isUser").asBoolean() ? JsonFiles.text(next, "query") : "";
                items.add(new BenchmarkItem(dialogueId + "-" + turn, ordinal++, dbId, JsonFiles.text(t, "text").strip(), "",
                        gold, gold.isBlank() ? SpiderHardness.UNKNOWN : hardness.classify(gold), dialogueId, turn, type(JsonFiles.text(t, "type"), gold)));
                turn++;
            }
            dialogue++;
        }
        return new Benchmark("cosql-" + SpiderLoader.stem(questionsFile.getFileName().toString()), items, databaseRoot);
    }

    /** A few turns carry no type; one that owes SQL is answerable, one that does not is left "unknown". */
    private static String type(String raw, String gold) {
        String t = raw.strip().toLowerCase(Locale.ROOT);
        if (!t.isEmpty()) {
            return t;
        }
        return gold.isBlank() ? "unknown" : "answerable";
    }
}

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
    public Benchmark load(Path questionsFile, Path databaseRoot, String name) {
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
                if (!isUser(t)) {
                    continue;
                }
                JsonNode next = i + 1 < turns.size() ? turns.get(i + 1) : null;
                String gold = next != null && !isUser(next) ? sqlOrEmpty(JsonFiles.text(next, "query")) : "";
                items.add(new BenchmarkItem(dialogueId + "-" + turn, ordinal++, dbId, JsonFiles.text(t, "text").strip(), "",
                        gold, gold.isBlank() ? SpiderHardness.UNKNOWN : hardness.classify(gold), dialogueId, turn, type(JsonFiles.text(t, "type"), gold)));
                turn++;
            }
            dialogue++;
        }
        if (items.isEmpty()) {
            throw new IllegalArgumentException(questionsFile + ": no user turns: expected the CoSQL/MMSQL layout, a list of "
                    + "{\"db_name\", \"turns\": [{\"isUser\" or \"isuser\": true, \"text\", \"type\"}, {\"query\"}, ...]}");
        }
        return new Benchmark(name, items, databaseRoot);
    }

    public Benchmark load(Path questionsFile, Path databaseRoot) {
        return load(questionsFile, databaseRoot, "cosql-" + SpiderLoader.stem(questionsFile.getFileName().toString()));
    }

    /** What {@link #eachUserTurn} hands over: the dialogue's position, the user turn's number in it, the turn, the turn after it (or null). */
    @FunctionalInterface
    public interface UserTurnVisitor {
        void visit(int dialogue, int userTurn, JsonNode turn, JsonNode answer);
    }

    /** Walks every user turn of a file in the CoSQL/MMSQL layout, numbered as this loader numbers them ({@code d<dialogue>-<userTurn>}). */
    public static void eachUserTurn(JsonNode root, UserTurnVisitor visitor) {
        for (int d = 0; d < root.size(); d++) {
            JsonNode turns = root.get(d).path("turns");
            int userTurn = 0;
            for (int i = 0; i < turns.size(); i++) {
                if (isUser(turns.get(i))) {
                    visitor.visit(d, userTurn++, turns.get(i), i + 1 < turns.size() ? turns.get(i + 1) : null);
                }
            }
        }
    }

    /** A user turn: CoSQL spells the flag {@code isUser}, MMSQL's test suite {@code isuser}. */
    public static boolean isUser(JsonNode turn) {
        return turn.path("isUser").asBoolean(false) || turn.path("isuser").asBoolean(false);
    }

    /** The gold of a turn is SQL only when it reads as a query; MMSQL keeps an explanation there for one unanswerable turn. */
    private static String sqlOrEmpty(String query) {
        String q = query.strip();
        String head = q.length() > 6 ? q.substring(0, 6).toUpperCase(Locale.ROOT) : q.toUpperCase(Locale.ROOT);
        return head.startsWith("SELECT") || head.startsWith("WITH") || head.startsWith("(") ? q : "";
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

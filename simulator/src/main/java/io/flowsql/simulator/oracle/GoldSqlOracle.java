package io.flowsql.simulator.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Knows the gold SQL of benchmark questions (Spider, BIRD, CoSQL files as released), so the simulator
 * can answer SQL-generation prompts with a realistic query instead of a canned string.
 *
 * <p>A question may also name the evidence its gold SQL needs ({@code needs_evidence}, a text the prompt must
 * contain, e.g. a definition's rule) and the SQL written without it ({@code query_without_evidence}): seen through a
 * prompt ({@link #seenThrough}), such a question's answer is the gold SQL only when the prompt carries that evidence.
 * So a test measures whether a definition reaches the model's prompt, not a model's skill at reading it.
 */
public final class GoldSqlOracle {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Map<String, String> goldByKey;
    private final Map<String, String> typeByKey;
    private final Map<String, EvidenceGate> gateByKey;
    /** The prompt (lower case) this view answers for; null: no gate applies. */
    private final String prompt;

    /** The evidence a question's gold SQL needs (matched ignoring case) and the SQL written without it. */
    public record EvidenceGate(String needs, String without) {}

    private GoldSqlOracle(Map<String, String> goldByKey, Map<String, String> typeByKey, Map<String, EvidenceGate> gateByKey,
            String prompt) {
        this.goldByKey = goldByKey;
        this.typeByKey = typeByKey;
        this.gateByKey = gateByKey;
        this.prompt = prompt;
    }

    /** Whether some question's answer depends on the evidence its prompt carries. */
    public boolean gated() {
        return !gateByKey.isEmpty();
    }

    /** This oracle answering for a request whose prompts (all messages) are {@code promptText}. */
    public GoldSqlOracle seenThrough(String promptText) {
        return gateByKey.isEmpty() ? this : new GoldSqlOracle(goldByKey, typeByKey, gateByKey,
                promptText == null ? "" : promptText.toLowerCase(Locale.ROOT));
    }

    /** Loads one or more benchmark files; the format of each is recognised from its fields. */
    public static GoldSqlOracle load(Path... files) {
        Map<String, String> gold = new HashMap<>();
        Map<String, String> types = new HashMap<>();
        Map<String, EvidenceGate> gates = new HashMap<>();
        for (Path file : files) {
            readInto(file, gold, types, gates);
        }
        return new GoldSqlOracle(Map.copyOf(gold), Map.copyOf(types), Map.copyOf(gates), null);
    }

    /** The gold SQL for a question of a database; the question is matched ignoring case and spacing. */
    public Optional<String> goldSql(String dbId, String question) {
        if (dbId == null || question == null) {
            return Optional.empty();
        }
        String key = key(dbId, question);
        EvidenceGate gate = prompt == null ? null : gateByKey.get(key);
        if (gate != null && !prompt.contains(gate.needs().toLowerCase(Locale.ROOT))) {
            return Optional.of(gate.without());
        }
        return Optional.ofNullable(goldByKey.get(key));
    }

    /**
     * The question type a typed dialogue file gives the turn (CoSQL/MMSQL: answerable, ambiguous,
     * unanswerable, improper); empty for questions of untyped files.
     */
    public Optional<String> questionType(String dbId, String question) {
        if (dbId == null || question == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(typeByKey.get(key(dbId, question)));
    }

    /** How many (database, question) pairs are known. */
    public int size() {
        return goldByKey.size();
    }

    private static void readInto(Path file, Map<String, String> gold, Map<String, String> types,
            Map<String, EvidenceGate> gates) {
        JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read benchmark file " + file, e);
        }
        if (!root.isArray()) {
            throw new IllegalArgumentException(file + " is not a JSON list of questions");
        }
        for (JsonNode item : root) {
            if (item.has("turns")) {
                readDialogue(item, gold, types);
            } else if (item.has("SQL")) {
                put(gold, item.path("db_id").asText(), item.path("question").asText(), item.path("SQL").asText());
            } else if (item.has("query")) {
                put(gold, item.path("db_id").asText(), item.path("question").asText(), item.path("query").asText());
            }
            if (item.hasNonNull("needs_evidence") && item.hasNonNull("query_without_evidence")) {
                gates.putIfAbsent(key(item.path("db_id").asText(), item.path("question").asText()), new EvidenceGate(
                        item.path("needs_evidence").asText(), item.path("query_without_evidence").asText().strip()));
            }
        }
    }

    /** A user turn: CoSQL writes {@code isUser}, MMSQL's test suite {@code isuser}. */
    private static boolean isUser(JsonNode turn) {
        return turn.path("isUser").asBoolean(false) || turn.path("isuser").asBoolean(false);
    }

    /** CoSQL typed dialogues (and MMSQL's test suite): a user turn is answered by the system turn that follows it. */
    private static void readDialogue(JsonNode dialogue, Map<String, String> gold, Map<String, String> types) {
        String dbId = dialogue.has("db_name") ? dialogue.path("db_name").asText() : dialogue.path("db_id").asText();
        JsonNode turns = dialogue.path("turns");
        for (int i = 0; i + 1 < turns.size(); i++) {
            JsonNode turn = turns.get(i);
            String type = turn.path("type").asText("");
            if (isUser(turn) && !type.isBlank() && !dbId.isBlank() && !turn.path("text").asText().isBlank()) {
                types.putIfAbsent(key(dbId, turn.path("text").asText()), type.strip().toLowerCase(Locale.ROOT));
            }
            JsonNode next = turns.get(i + 1);
            if (isUser(turn) && !isUser(next)) {
                put(gold, dbId, turn.path("text").asText(), next.path("query").asText(""));
            }
        }
    }

    private static void put(Map<String, String> gold, String dbId, String question, String sql) {
        if (!dbId.isBlank() && !question.isBlank() && sql != null && !sql.isBlank()) {
            gold.putIfAbsent(key(dbId, question), sql.strip());
        }
    }

    static String normalize(String text) {
        return text.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

    private static String key(String dbId, String question) {
        return dbId.strip().toLowerCase(Locale.ROOT) + '\u0000' + normalize(question);
    }
}

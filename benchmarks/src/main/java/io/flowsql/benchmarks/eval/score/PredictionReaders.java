package io.flowsql.benchmarks.eval.score;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.benchmarks.eval.load.CosqlLoader;
import io.flowsql.benchmarks.eval.metrics.StageCost;
import io.flowsql.events.AnswerEvent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads each prediction format into {@link Prediction}s. A file that is not the format's layout fails naming it; a line
 * that is not UTF-8 or not readable becomes a prediction scored wrong with the reason, naming its file and line, and
 * the other lines are read.
 */
public final class PredictionReaders {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String BIRD_SEPARATOR = "\t----- bird -----\t";
    /** The request id of a line that is not valid JSON, so its question can still be scored wrong with the reason. */
    private static final Pattern REQUEST_ID = Pattern.compile("\"request_id\"\\s*:\\s*\"([^\"\\\\]{1,400})\"");

    private PredictionReaders() {}

    static List<Prediction> birdJson(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read BIRD predictions " + file, e);
        }
        PredictionLines.Line whole = PredictionLines.decodeWhole(file, bytes);
        JsonNode root;
        try {
            root = MAPPER.readTree(whole.text());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read BIRD predictions " + file, e);
        }
        if (!root.isObject()) {
            throw new IllegalArgumentException(file + ": not BIRD's layout: expected a JSON object {\"0\": \"SQL\\t----- bird -----\\tdb_id\", ...}");
        }
        List<Prediction> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String value = e.getValue().asText();
            int sep = value.indexOf(BIRD_SEPARATOR);
            String sql = sep < 0 ? value : value.substring(0, sep);
            int idx;
            try {
                idx = Integer.parseInt(e.getKey().strip());
            } catch (NumberFormatException ex) {
                throw new IllegalArgumentException(file + ": not BIRD's layout: key '" + e.getKey() + "' is not a question index");
            }
            if (whole.undecodable() != null && value.indexOf('\uFFFD') >= 0) {
                out.add(Prediction.unreadable(null, idx, whole.undecodable() + ", in the prediction of question " + idx));
                continue;
            }
            out.add(new Prediction(null, idx, sql, null, List.of()));
        }
        return out;
    }

    /** Whether a JSON file's root is an array (MMSQL output) rather than an object (BIRD). */
    static boolean jsonArray(Path file) {
        return readJson(file).isArray();
    }

    /**
     * MMSQL's output layout: a list of {@code {db_name, turns}}; each user turn ({@code isuser} or {@code isUser}) is
     * answered by the next turn, whose {@code predict_type} (default {@code answerable}, as MMSQL's script reads it)
     * and {@code predict_sql} (else the SQL inside {@code predict}) are the prediction. Keys are {@code d<dialogue>-<turn>},
     * the ids of the dialogue loaders.
     */
    static List<Prediction> mmsqlJson(Path file) {
        JsonNode root = readJson(file);
        if (!root.isArray() || (!root.isEmpty() && !root.get(0).has("turns"))) {
            throw new IllegalArgumentException(file + ": not MMSQL's output layout: expected a JSON array of "
                    + "{\"db_name\", \"turns\": [{\"isuser\": true, ...}, {\"predict\"|\"predict_sql\", \"predict_type\"}, ...]}");
        }
        List<Prediction> out = new ArrayList<>();
        CosqlLoader.eachUserTurn(root, (d, userTurn, turn, answer) -> {
            if (answer != null && !CosqlLoader.isUser(answer)
                    && (answer.has("predict") || answer.has("predict_sql") || answer.has("predict_type"))) {
                String type = answer.path("predict_type").asText("");
                String sql = answer.hasNonNull("predict_sql") ? answer.get("predict_sql").asText()
                        : io.flowsql.benchmarks.eval.semantics.MmsqlRewrites.sqlOf(answer.path("predict").asText(""));
                out.add(new Prediction("d" + d + "-" + userTurn, -1, sql, type.isBlank() ? "answerable" : type, List.of(),
                        List.of(), answer.path("predict").asText(""), null));
            }
        });
        if (out.isEmpty()) {
            throw new IllegalArgumentException(file + ": no predictions: no system turn carries predict, predict_sql or predict_type");
        }
        return out;
    }

    private static JsonNode readJson(Path file) {
        try {
            return MAPPER.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read predictions " + file, e);
        }
    }

    /** One SQL per line; a line that is not UTF-8 is kept in its place, scored wrong with its reason. */
    static List<Prediction> sqlLines(Path file) {
        List<Prediction> out = new ArrayList<>();
        List<PredictionLines.Line> lines = PredictionLines.read(file);
        for (int i = 0; i < lines.size(); i++) {
            PredictionLines.Line line = lines.get(i);
            if (line.undecodable() != null) {
                out.add(Prediction.unreadable(null, i, line.undecodable()));
                continue;
            }
            String text = line.text().strip();
            int tab = text.indexOf('\t');
            out.add(new Prediction(null, i, tab < 0 ? text : text.substring(0, tab), null, List.of()));
        }
        return out;
    }

    /** Answers JSONL; a line that is not UTF-8 or not an answer is scored wrong for the request it names, when it names one. */
    static List<Prediction> answersJsonl(Path file) {
        List<Prediction> out = new ArrayList<>();
        for (PredictionLines.Line line : PredictionLines.read(file)) {
            if (line.text().isBlank()) {
                continue;
            }
            if (line.undecodable() != null) {
                out.add(unreadableAnswer(line.text(), line.undecodable()));
                continue;
            }
            AnswerEvent a;
            try {
                a = MAPPER.readValue(line.text(), AnswerEvent.class);
            } catch (IOException e) {
                String message = e.getMessage() == null ? "unreadable" : e.getMessage().lines().findFirst().orElse("");
                out.add(unreadableAnswer(line.text(), file + ":" + line.number() + ": not an answer: " + message));
                continue;
            }
            List<StageCost> stages = a.trace.stream()
                    .map(t -> new StageCost(t.stage, t.latencyMs, t.promptTokens, t.completionTokens)).toList();
            List<String> readings = a.interpretations == null ? List.of()
                    : a.interpretations.stream().map(r -> r.sql).toList();
            out.add(new Prediction(RequestIds.itemId(a.requestId), -1, a.sql, a.questionType, stages, readings, a.response, null));
        }
        return out;
    }

    private static Prediction unreadableAnswer(String text, String reason) {
        System.err.println(reason);
        Matcher id = REQUEST_ID.matcher(text);
        return Prediction.unreadable(id.find() ? RequestIds.itemId(id.group(1)) : null, -1, reason);
    }
}

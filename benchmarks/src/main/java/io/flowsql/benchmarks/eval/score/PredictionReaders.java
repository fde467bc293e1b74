package io.flowsql.benchmarks.eval.score;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * Reads each prediction format into {@link Prediction}s; a line that is not UTF-8 or not readable becomes a
 * prediction scored wrong with the reason, naming its file and line, and the other lines are read.
 */
final class PredictionReaders {
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
        List<Prediction> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            int ordinal;
            try {
                ordinal = Integer.parseInt(e.getKey().strip());
            } catch (NumberFormatException bad) {
                System.err.println(file + ": skipping key '" + e.getKey() + "', not a question index");
                continue;
            }
            String value = e.getValue().asText();
            if (whole.undecodable() != null && value.indexOf('\uFFFD') >= 0) {
                out.add(Prediction.unreadable(null, ordinal, whole.undecodable() + ", in the prediction of question " + ordinal));
                continue;
            }
            int sep = value.indexOf(BIRD_SEPARATOR);
            String sql = sep < 0 ? value : value.substring(0, sep);
            out.add(new Prediction(null, ordinal, sql, null, List.of()));
        }
        return out;
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
            String text = line.text();
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
            out.add(new Prediction(RequestIds.itemId(a.requestId), -1, a.sql, a.questionType, stages, readings));
        }
        return out;
    }

    private static Prediction unreadableAnswer(String text, String reason) {
        System.err.println(reason);
        Matcher id = REQUEST_ID.matcher(text);
        return Prediction.unreadable(id.find() ? RequestIds.itemId(id.group(1)) : null, -1, reason);
    }
}

package io.flowsql.benchmarks.eval.score;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.benchmarks.eval.metrics.StageCost;
import io.flowsql.events.AnswerEvent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Reads each prediction format into {@link Prediction}s; a malformed line fails with its file and line number. */
final class PredictionReaders {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String BIRD_SEPARATOR = "\t----- bird -----\t";

    private PredictionReaders() {}

    static List<Prediction> birdJson(Path file) {
        JsonNode root;
        try {
            root = MAPPER.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read BIRD predictions " + file, e);
        }
        List<Prediction> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String value = e.getValue().asText();
            int sep = value.indexOf(BIRD_SEPARATOR);
            String sql = sep < 0 ? value : value.substring(0, sep);
            out.add(new Prediction(null, Integer.parseInt(e.getKey().strip()), sql, null, List.of()));
        }
        return out;
    }

    static List<Prediction> sqlLines(Path file) {
        List<Prediction> out = new ArrayList<>();
        List<String> lines = readLines(file);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int tab = line.indexOf('\t');
            out.add(new Prediction(null, i, tab < 0 ? line : line.substring(0, tab), null, List.of()));
        }
        return out;
    }

    static List<Prediction> answersJsonl(Path file) {
        List<Prediction> out = new ArrayList<>();
        List<String> lines = readLines(file);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            AnswerEvent a;
            try {
                a = MAPPER.readValue(lines.get(i), AnswerEvent.class);
            } catch (IOException e) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": not an answer: " + e.getMessage(), e);
            }
            List<StageCost> stages = a.trace.stream()
                    .map(t -> new StageCost(t.stage, t.latencyMs, t.promptTokens, t.completionTokens)).toList();
            List<String> readings = a.interpretations == null ? List.of()
                    : a.interpretations.stream().map(r -> r.sql).toList();
            out.add(new Prediction(RequestIds.itemId(a.requestId), -1, a.sql, a.questionType, stages, readings));
        }
        return out;
    }

    private static List<String> readLines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read predictions " + file, e);
        }
    }
}

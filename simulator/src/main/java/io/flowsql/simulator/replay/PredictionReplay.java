package io.flowsql.simulator.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Real model output to answer with: the questions of a benchmark file in their order (Spider's
 * {@code dev.json}: {@code db_id}, {@code question}) and K prediction files; sample k of question i is entry i
 * of file k. A question asked twice on one database gets the entries of its first occurrence.
 */
public final class PredictionReplay {
    private final Map<String, Integer> indexByKey;
    private final List<PredictionFile> files;

    PredictionReplay(List<String[]> questions, List<PredictionFile> files) {
        if (files.isEmpty()) {
            throw new IllegalArgumentException("replay needs at least one prediction file");
        }
        for (PredictionFile f : files) {
            if (f.sqls().size() != questions.size()) {
                throw new IllegalArgumentException(f.name() + " has " + f.sqls().size() + " predictions for "
                        + questions.size() + " questions: sample k of question i must be entry i of file k");
            }
        }
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < questions.size(); i++) {
            index.putIfAbsent(key(questions.get(i)[0], questions.get(i)[1]), i);
        }
        this.indexByKey = Map.copyOf(index);
        this.files = List.copyOf(files);
    }

    /** Loads the question order from a Spider-layout benchmark file and the prediction files, in sample order. */
    public static PredictionReplay load(Path questionsFile, List<Path> predictionFiles) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(questionsFile.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read questions " + questionsFile, e);
        }
        if (!root.isArray()) {
            throw new IllegalArgumentException(questionsFile + " is not a JSON list of questions");
        }
        List<String[]> questions = new ArrayList<>();
        for (JsonNode item : root) {
            questions.add(new String[] {item.path("db_id").asText(), item.path("question").asText()});
        }
        return new PredictionReplay(questions, predictionFiles.stream().map(PredictionFile::read).toList());
    }

    /** How many samples (prediction files) there are. */
    public int samples() {
        return files.size();
    }

    public List<String> fileNames() {
        return files.stream().map(PredictionFile::name).toList();
    }

    /** The position of a question in the benchmark order, matched ignoring case and spacing. */
    public Optional<Integer> indexOf(String dbId, String question) {
        return Optional.ofNullable(indexByKey.get(key(dbId, question)));
    }

    /** Sample {@code k} (file {@code k mod K}) for a question; empty for an unknown question or an empty entry. */
    public Optional<String> sample(String dbId, String question, int k) {
        return indexOf(dbId, question)
                .map(i -> files.get(Math.floorMod(k, files.size())).sqls().get(i))
                .filter(sql -> !sql.isBlank());
    }

    private static String key(String dbId, String question) {
        return dbId.strip().toLowerCase(Locale.ROOT) + '\u0000'
                + question.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }
}

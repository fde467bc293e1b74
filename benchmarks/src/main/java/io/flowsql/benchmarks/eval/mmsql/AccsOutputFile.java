package io.flowsql.benchmarks.eval.mmsql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An MMSQL output file as MMSQL's {@code accs_eval.py} reads it: a JSON array of {@code {"db_name": "...", "turns": [...]}},
 * each turn an object. The script takes everything from this file (gold type, gold SQL, prediction), so the file is
 * all the replay needs besides the databases. A file of another layout is refused with the reason, before any scoring.
 */
public record AccsOutputFile(Path path, List<Dialogue> dialogues) {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    static final String LAYOUT = "MMSQL's output layout: a JSON array of {\"db_name\": \"<database>\", \"turns\": "
            + "[{\"isuser\": true, \"text\", \"type\"}, {\"isuser\": false, \"query\", \"predict_sql\", \"predict_type\", \"RQS\"}, ...]}";

    /** One element of the array: its position, database and turns. */
    public record Dialogue(int index, String db, List<JsonNode> turns) {}

    public static AccsOutputFile read(Path file) {
        JsonNode root;
        try {
            root = MAPPER.readTree(file.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": not " + LAYOUT + ": not JSON (" + firstLine(e) + ")", e);
        }
        if (root == null || !root.isArray()) {
            String what = root == null ? "empty" : root.isObject() ? "a JSON object (BIRD's predict_dev.json is one)" : "a JSON " + root.getNodeType();
            throw refused(file, "the file is " + what);
        }
        if (root.isEmpty()) {
            throw refused(file, "the array is empty");
        }
        List<Dialogue> out = new ArrayList<>(root.size());
        for (int d = 0; d < root.size(); d++) {
            JsonNode element = root.get(d);
            if (!element.isObject()) {
                throw refused(file, "element " + d + " is not an object");
            }
            if (!element.path("db_name").isTextual()) {
                throw refused(file, "element " + d + " has no db_name string (the script prints \"DB Name:\" + db_name and stops)");
            }
            JsonNode turns = element.get("turns");
            if (turns != null && !turns.isArray()) {
                throw refused(file, "element " + d + ": turns is not an array");
            }
            List<JsonNode> list = new ArrayList<>();
            if (turns != null) {
                for (int t = 0; t < turns.size(); t++) {
                    if (!turns.get(t).isObject()) {
                        throw refused(file, "element " + d + ", turn " + t + " is not an object");
                    }
                    list.add(turns.get(t));
                }
            }
            out.add(new Dialogue(d, element.get("db_name").asText(), List.copyOf(list)));
        }
        if (out.stream().noneMatch(dl -> dl.turns().stream().anyMatch(t -> PyJson.truthy(t.get("isuser"))))) {
            throw refused(file, "no turn has a true isuser flag (the script reads user turns by the lower-case key isuser)");
        }
        return new AccsOutputFile(file, List.copyOf(out));
    }

    static IllegalArgumentException refused(Path file, String why) {
        return new IllegalArgumentException(file + " is refused: not " + LAYOUT + ": " + why);
    }

    private static String firstLine(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
    }
}

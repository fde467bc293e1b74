package io.flowsql.benchmarks.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.events.EventJson;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * How many of an answers file's answers came from the simulated LLM (the answer's {@code simulated} flag), and in which
 * mode as its trace's model names say ({@code oracle}: the gold SQL handed back; {@code replay}: another system's
 * predictions replayed), so every report's headline says when its figures are not a real model's.
 *
 * @param simulated answers marked simulated
 * @param answers   answers read (lines of an answers JSONL file); 0 for another prediction format
 * @param models    the model names of the simulated answers' trace entries
 */
public record SimulatedAnswers(int simulated, int answers, Set<String> models) {
    public static final SimulatedAnswers NONE = new SimulatedAnswers(0, 0, Set.of());

    /** Counts an answers JSONL file; {@link #NONE} when the file is not one (a SQL file, a CSV) or cannot be read. */
    public static SimulatedAnswers read(Path file) {
        if (file == null || !Files.isRegularFile(file)) {
            return NONE;
        }
        int simulated = 0;
        int answers = 0;
        Set<String> models = new TreeSet<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (!line.startsWith("{")) {
                    if (line.isBlank()) {
                        continue;
                    }
                    return NONE;
                }
                JsonNode answer = EventJson.mapper().readTree(line);
                answers++;
                if (answer.path("simulated").asBoolean(false)) {
                    simulated++;
                    answer.path("trace").forEach(t -> {
                        if (t.path("simulated").asBoolean(false) && t.hasNonNull("model")) {
                            models.add(t.path("model").asText());
                        }
                    });
                }
            }
        } catch (IOException | RuntimeException e) {
            return NONE;
        }
        return new SimulatedAnswers(simulated, answers, Set.copyOf(models));
    }

    /** "oracle", "replay", both, or "unknown mode" (from the simulated models' names). */
    public String mode() {
        boolean oracle = models.stream().anyMatch(m -> m.toLowerCase(Locale.ROOT).contains("oracle"));
        boolean replay = models.stream().anyMatch(m -> m.toLowerCase(Locale.ROOT).contains("replay"));
        if (oracle && replay) {
            return "oracle and replay";
        }
        return oracle ? "oracle" : replay ? "replay" : "unknown mode";
    }

    /** The headline's opening words when any answer was simulated, else empty. */
    public String headlinePrefix() {
        if (simulated == 0) {
            return "";
        }
        return String.format(Locale.ROOT, "SIMULATED LLM (%s): %d of %d answers came from the simulator, not a real model; ",
                mode(), simulated, answers);
    }
}

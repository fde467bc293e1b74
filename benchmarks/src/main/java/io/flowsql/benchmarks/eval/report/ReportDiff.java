package io.flowsql.benchmarks.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Two reports compared question by question: every question whose verdict differs (gained, lost, or changed between
 * two kinds of wrong), and the questions present in only one of them.
 */
public record ReportDiff(String before, String after, String semanticsBefore, String semanticsAfter, List<Change> changes,
                         List<String> onlyBefore, List<String> onlyAfter, int compared) {

    /** One question whose verdict changed. */
    public record Change(String id, String dbId, String before, String after, String predictionBefore, String predictionAfter) {
        public boolean gained() {
            return !before.equals("correct") && after.equals("correct");
        }

        public boolean lost() {
            return before.equals("correct") && !after.equals("correct");
        }
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Reads a report.json (or the report.json inside a folder); refuses a report without per-question verdicts. */
    public static JsonNode read(Path file) {
        Path json = Files.isDirectory(file) ? file.resolve("report.json") : file;
        JsonNode root;
        try {
            root = MAPPER.readTree(json.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read report " + json, e);
        }
        if (!root.path("questions").isArray()) {
            throw new IllegalArgumentException(json + " has no per-question verdicts (\"questions\"): written by an older version?");
        }
        return root;
    }

    public static ReportDiff of(JsonNode before, JsonNode after) {
        Map<String, JsonNode> a = byId(before);
        Map<String, JsonNode> b = byId(after);
        List<Change> changes = new ArrayList<>();
        List<String> onlyBefore = new ArrayList<>();
        int compared = 0;
        for (Map.Entry<String, JsonNode> e : a.entrySet()) {
            JsonNode other = b.get(e.getKey());
            if (other == null) {
                onlyBefore.add(e.getKey());
                continue;
            }
            compared++;
            String v1 = e.getValue().path("verdict").asText();
            String v2 = other.path("verdict").asText();
            if (!v1.equals(v2)) {
                changes.add(new Change(e.getKey(), e.getValue().path("db_id").asText(), v1, v2,
                        e.getValue().path("prediction").asText(), other.path("prediction").asText()));
            }
        }
        List<String> onlyAfter = b.keySet().stream().filter(k -> !a.containsKey(k)).toList();
        return new ReportDiff(before.path("predictions").asText(), after.path("predictions").asText(),
                before.path("semantics").asText(), after.path("semantics").asText(), changes, onlyBefore, onlyAfter, compared);
    }

    private static Map<String, JsonNode> byId(JsonNode report) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        report.path("questions").forEach(q -> out.put(q.path("id").asText(), q));
        return out;
    }

    public String render() {
        StringBuilder out = new StringBuilder();
        out.append("before: ").append(before).append(" [").append(semanticsBefore).append("]\n");
        out.append("after:  ").append(after).append(" [").append(semanticsAfter).append("]\n");
        if (!semanticsBefore.equals(semanticsAfter)) {
            out.append("note: the two reports were scored with different semantics\n");
        }
        long gained = changes.stream().filter(Change::gained).count();
        long lost = changes.stream().filter(Change::lost).count();
        out.append(String.format(Locale.ROOT, "%d questions compared: %d changed (%d now correct, %d no longer correct, %d other)%n",
                compared, changes.size(), gained, lost, changes.size() - gained - lost));
        for (Change c : changes) {
            out.append(String.format(Locale.ROOT, "%s\t%s\t%s -> %s\t%s%n", c.id(), c.dbId(), c.before(), c.after(),
                    c.predictionAfter().replace('\n', ' ')));
        }
        if (!onlyBefore.isEmpty()) {
            out.append("only in before: ").append(onlyBefore.size()).append(' ').append(onlyBefore).append('\n');
        }
        if (!onlyAfter.isEmpty()) {
            out.append("only in after: ").append(onlyAfter.size()).append(' ').append(onlyAfter).append('\n');
        }
        return out.toString();
    }
}

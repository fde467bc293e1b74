package io.flowsql.job.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flowsql.events.EventJson;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Turns what a user gives to {@code ask} (plain questions, a JSONL file, Spider dev questions of one
 * database) into question JSON with ids filled in, ready for schema checking.
 */
final class QuestionSource {
    private final String defaultDb;
    private final String dialogueId;
    private final String runId = UUID.randomUUID().toString().substring(0, 8);
    private int counter;

    /** @param dialogueId one dialogue for every question, or null for a new dialogue per question */
    QuestionSource(String defaultDb, String dialogueId) {
        this.defaultDb = defaultDb;
        this.dialogueId = dialogueId;
    }

    ObjectNode fromText(String question) {
        ObjectNode node = EventJson.mapper().createObjectNode();
        node.put("question", question);
        return complete(node);
    }

    /** Lines of JSON objects; missing request_id, dialogue_id and db_id are filled in. */
    List<ObjectNode> fromJsonl(Path file) throws IOException {
        List<ObjectNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode node = EventJson.mapper().readTree(line);
            if (!(node instanceof ObjectNode obj)) {
                throw new IllegalArgumentException("not a JSON object in " + file + ": " + line);
            }
            out.add(complete(obj));
        }
        return out;
    }

    /** The first {@code count} questions of Spider's dev.json about {@code db}. */
    List<ObjectNode> fromSpiderDev(Path devJson, String db, int count) throws IOException {
        List<ObjectNode> out = new ArrayList<>();
        for (JsonNode item : EventJson.mapper().readTree(devJson.toFile())) {
            if (out.size() >= count) {
                break;
            }
            if (db.equals(item.path("db_id").asText())) {
                ObjectNode node = EventJson.mapper().createObjectNode();
                node.put("db_id", db);
                node.put("question", item.path("question").asText());
                out.add(complete(node));
            }
        }
        return out;
    }

    private ObjectNode complete(ObjectNode node) {
        int n = ++counter;
        if (!node.hasNonNull("request_id")) {
            node.put("request_id", "cli-" + runId + "-" + n);
        }
        if (!node.hasNonNull("dialogue_id")) {
            node.put("dialogue_id", dialogueId != null ? dialogueId : "cli-" + runId + "-d" + n);
        }
        if (!node.hasNonNull("db_id") && defaultDb != null) {
            node.put("db_id", defaultDb);
        }
        return node;
    }
}

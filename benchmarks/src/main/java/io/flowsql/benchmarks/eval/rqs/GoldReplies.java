package io.flowsql.benchmarks.eval.rqs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.benchmarks.eval.load.CosqlLoader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** The gold system replies of a typed dialogue file (the RQS judge's reference answer), by the loaders' turn ids {@code d<i>-<turn>}. */
public final class GoldReplies {
    private GoldReplies() {}

    public static Map<String, String> load(Path dialogueFile) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(dialogueFile.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + dialogueFile, e);
        }
        Map<String, String> replies = new HashMap<>();
        CosqlLoader.eachUserTurn(root, (d, userTurn, turn, answer) -> {
            if (answer != null && !CosqlLoader.isUser(answer)) {
                String text = answer.path("text").asText("");
                replies.put("d" + d + "-" + userTurn, !text.isBlank() ? text : answer.path("query").asText(""));
            }
        });
        return replies;
    }
}

package io.flowsql.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Takes real Spider dev questions of one database as question events, each in its own dialogue. */
final class SpiderQuestions {
    private SpiderQuestions() {}

    static List<QuestionEvent> of(Path sharedData, String dbId, int count) throws IOException {
        JsonNode dev = EventJson.mapper().readTree(sharedData.resolve("spider/dev.json").toFile());
        List<QuestionEvent> out = new ArrayList<>();
        for (JsonNode item : dev) {
            if (out.size() == count) {
                break;
            }
            if (dbId.equals(item.path("db_id").asText())) {
                int n = out.size();
                out.add(new QuestionEvent("q-" + n, "dialogue-" + n, dbId, item.path("question").asText()));
            }
        }
        return out;
    }
}

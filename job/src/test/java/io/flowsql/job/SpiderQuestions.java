package io.flowsql.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.events.QuestionOptions;

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

    /**
     * {@code count} questions q-0 … q-(count-1), each in its own dialogue, cycling through the first 40 Spider dev
     * questions on concert_singer, all asking for {@code strategy}.
     */
    static List<QuestionEvent> cycled(Path sharedData, int count, String strategy) throws IOException {
        List<QuestionEvent> pool = of(sharedData, "concert_singer", 40);
        if (pool.size() != 40) {
            throw new IllegalStateException("expected 40 Spider dev questions for concert_singer under " + sharedData);
        }
        List<QuestionEvent> questions = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            QuestionEvent q = new QuestionEvent("q-" + i, "dialogue-" + i, "concert_singer", pool.get(i % pool.size()).question);
            q.options = new QuestionOptions();
            q.options.strategy = strategy;
            questions.add(q);
        }
        return questions;
    }
}

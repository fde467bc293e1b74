package io.flowsql.agents.mmsql;

import io.flowsql.pipeline.QuestionType;
import java.util.List;

/** What MMSQL's question detector decided about one turn: its type, why, the reply or clarification, and the readings of an ambiguous turn. */
public record Detection(QuestionType type, String reason, String response, List<String> readings) {
    public Detection {
        readings = List.copyOf(readings);
        response = response == null ? "" : response;
        reason = reason == null ? "" : reason;
    }
}

package io.flowsql.flink;

import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.pipeline.RequestContext;
import java.time.Instant;

/** A question the keyed operators refuse, as a dead letter: the question again, where it was read, and why. */
final class QuestionDeadLetter {
    private QuestionDeadLetter() {}

    static DeadLetterEvent of(RequestContext question, String reason, long nowMillis) {
        QuestionEvent event = new QuestionEvent(question.requestId, question.dialogueId, question.dbId, question.question);
        event.evidence = question.evidence;
        RequestIdFunction.Origin origin = RequestIdFunction.Origin.parse(question.origin);
        return new DeadLetterEvent(EventJson.toJson(event), origin.topic(), origin.partition(), origin.offset(), reason,
                Instant.ofEpochMilli(nowMillis).toString());
    }
}

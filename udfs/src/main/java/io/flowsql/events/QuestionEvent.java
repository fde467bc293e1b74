package io.flowsql.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** A question as it arrives on the {@code questions} topic (schemas/questions.schema.json), keyed by dialogue id. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class QuestionEvent {
    public String requestId;
    public String dialogueId;
    /** Who asks (optional): the access policy of this tenant decides which databases and tables the question may use. */
    public String tenant;
    public String dbId;
    public String question;
    public String evidence;
    public QuestionOptions options;
    /** When the client sent it (ISO-8601), if it says so. */
    public String sentAt;
    /** Earlier turns supplied by the client; when present they replace the dialogue history the job kept. */
    public java.util.List<HistoryTurnEvent> history;

    public QuestionEvent() {}

    public QuestionEvent(String requestId, String dialogueId, String dbId, String question) {
        this.requestId = requestId;
        this.dialogueId = dialogueId;
        this.dbId = dbId;
        this.question = question;
    }
}

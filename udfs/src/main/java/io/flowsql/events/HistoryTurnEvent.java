package io.flowsql.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * One earlier turn supplied with a question ({@code history} in schemas/questions.schema.json): the question, its type,
 * the SQL that answered it and the answer's text. A question that carries a history is answered with that history
 * instead of the one the job kept for its dialogue (an evaluation's gold protocol: every turn sees the gold SQL of
 * the turns before it).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class HistoryTurnEvent {
    public String question;
    public String questionType;
    public String sql;
    public String answer;

    public HistoryTurnEvent() {}

    public HistoryTurnEvent(String question, String questionType, String sql, String answer) {
        this.question = question;
        this.questionType = questionType;
        this.sql = sql;
        this.answer = answer;
    }
}

package io.flowsql.pipeline;

/**
 * One earlier turn of a dialogue, as every stage's prompt sees it: the question, its detected type,
 * the SQL that answered it (null when none) and a short summary of its result or reply.
 */
public class DialogueTurn {
    public String requestId;
    public String question;
    public String questionType;
    public String sql;
    public String summary;

    public DialogueTurn() {}

    public DialogueTurn(String requestId, String question, String questionType, String sql, String summary) {
        this.requestId = requestId;
        this.question = question;
        this.questionType = questionType;
        this.sql = sql;
        this.summary = summary;
    }
}

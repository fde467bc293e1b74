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
    /**
     * This turn as {@link DialogueTurnSerializer} last wrote or read it, so a checkpoint copies bytes instead of encoding
     * the text again (a turn is not changed once it is in a dialogue's history); not part of the turn's value.
     */
    transient byte[] wire;

    public DialogueTurn() {}

    public DialogueTurn(String requestId, String question, String questionType, String sql, String summary) {
        this.requestId = requestId;
        this.question = question;
        this.questionType = questionType;
        this.sql = sql;
        this.summary = summary;
    }
}

package io.flowsql.events;

import io.flowsql.pipeline.RequestContext;

/** Turns a validated question into the context the stages work on, so per-request options reach them. */
public final class QuestionMapper {
    /** Note key under which a question's requested candidate count travels to the generators. */
    public static final String CANDIDATES_NOTE = "options.candidates";

    private QuestionMapper() {}

    /**
     * @param origin where it came from, e.g. "questions/0@42"
     * @param receivedAtMillis when the job read it
     */
    public static RequestContext toContext(QuestionEvent q, String origin, long receivedAtMillis) {
        RequestContext ctx = new RequestContext();
        ctx.requestId = q.requestId;
        ctx.dialogueId = q.dialogueId;
        ctx.tenant = q.tenant;
        ctx.dbId = q.dbId;
        ctx.question = q.question;
        ctx.evidence = q.evidence;
        ctx.origin = origin;
        ctx.receivedAtMillis = receivedAtMillis;
        if (q.history != null) {
            for (HistoryTurnEvent t : q.history) {
                ctx.history.add(new io.flowsql.pipeline.DialogueTurn(null, t.question, t.questionType, t.sql, t.answer));
            }
            ctx.historySupplied = true;
        }
        if (q.options != null) {
            ctx.strategy = q.options.strategy;
            ctx.journalOf = q.options.journalOf;
            if (q.options.disabledStages != null) {
                ctx.disabledStages.addAll(q.options.disabledStages);
            }
            if (q.options.stageModes != null) {
                q.options.stageModes.forEach((stage, mode) -> io.flowsql.pipeline.StageModes.choose(ctx, stage, mode));
            }
            io.flowsql.pipeline.Summaries.request(ctx, q.options.summarize);
            if (q.options.candidates != null) {
                ctx.notes.put(CANDIDATES_NOTE, Integer.toString(q.options.candidates));
            }
        }
        return ctx;
    }
}

package io.flowsql.agents.sqlfix;

import io.flowsql.agents.common.SchemaContext;
import io.flowsql.pipeline.RequestContext;
import java.util.HashMap;
import java.util.Map;

/**
 * The facts every SQLFixAgent and MMSQL prompt opens with (database, question, evidence, dialogue history,
 * schema), taken from the request once so each agent renders them the same way.
 */
public record QuestionFrame(String dbId, String question, String evidence, String history, String schema) {

    /** Reads the frame from a request with the fields every agent shares (the linked schema when a linker left one). */
    public static QuestionFrame of(RequestContext ctx, SchemaContext fields) {
        Map<String, Object> shared = fields.promptFields(ctx);
        return new QuestionFrame(ctx.dbId, (String) shared.get("question"), (String) shared.get("evidence"),
                (String) shared.get("history"), (String) shared.get("schema"));
    }

    /** The same frame asking about another text (a paraphrase or a reading). */
    public QuestionFrame asking(String otherQuestion) {
        return new QuestionFrame(dbId, oneLine(otherQuestion), evidence, history, schema);
    }

    /** The placeholders db_id, question, evidence, history and schema, in a map the caller may extend. */
    public Map<String, Object> vars() {
        Map<String, Object> vars = new HashMap<>();
        vars.put("db_id", dbId);
        vars.put("question", question);
        vars.put("evidence", evidence);
        vars.put("history", history);
        vars.put("schema", schema);
        return vars;
    }

    static String oneLine(String text) {
        return SchemaContext.oneLine(text);
    }
}

package io.flowsql.agents.sqlfix;

import io.flowsql.agents.common.HistoryRenderer;
import io.flowsql.pipeline.RequestContext;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The facts every SQLFixAgent and MMSQL prompt opens with (database, question, evidence, dialogue history,
 * schema), taken from the request once so each agent renders them the same way.
 */
public record QuestionFrame(String dbId, String question, String evidence, String history, String schema) {

    /** Reads the frame from a request: the linked schema text when a linker left one, else the database's full schema. */
    public static QuestionFrame of(RequestContext ctx, HistoryRenderer history, Function<String, String> fullSchema) {
        String schema = ctx.schemaText != null && !ctx.schemaText.isBlank() ? ctx.schemaText : fullSchema.apply(ctx.dbId);
        return new QuestionFrame(ctx.dbId, oneLine(ctx.question), ctx.evidence == null || ctx.evidence.isBlank()
                ? "(none)" : oneLine(ctx.evidence), history.render(ctx.history), schema);
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

    /** Prompt fields are single lines (the simulator and real models read them as labelled lines). */
    static String oneLine(String text) {
        return text == null ? "" : text.strip().replaceAll("\\s+", " ");
    }
}

package io.flowsql.knowledge;

import io.flowsql.pipeline.KnowledgeInPrompts;
import io.flowsql.pipeline.RequestContext;

import java.util.List;

/**
 * Puts the definitions a question uses into its evidence, the field every preset's prompts already show (BIRD's
 * "evidence"), after any evidence the question brought, and names them in the request's notes so the answer can say
 * which entries it used, and each stage's trace which entries its prompts carried ({@link KnowledgeInPrompts}).
 * Attaching twice (term matches, then embedding matches) adds to what the first attached.
 */
public final class KnowledgeEvidence {
    /** Note listing the knowledge ids a request's prompts carried, comma-separated. */
    public static final String USED_NOTE = "knowledge.used";

    private KnowledgeEvidence() {}

    public static void attach(RequestContext ctx, List<KnowledgeEntry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        StringBuilder evidence = new StringBuilder(ctx.evidence == null || ctx.evidence.isBlank() ? "" : ctx.evidence.strip());
        List<String> lines = entries.stream().map(e -> '"' + e.term.strip() + "\" means: " + e.definition.strip()).toList();
        for (String line : lines) {
            if (evidence.length() > 0) {
                evidence.append("; ");
            }
            evidence.append(line);
        }
        ctx.evidence = evidence.toString();
        List<String> ids = entries.stream().map(e -> e.knowledgeId).toList();
        List<String> all = new java.util.ArrayList<>(used(ctx));
        all.addAll(ids);
        ctx.notes.put(USED_NOTE, String.join(",", all));
        KnowledgeInPrompts.offer(ctx, ids, lines);
    }

    /** The knowledge ids {@code ctx}'s prompts carried (empty when none). */
    public static List<String> used(RequestContext ctx) {
        String ids = ctx.notes.get(USED_NOTE);
        return ids == null || ids.isBlank() ? List.of() : List.of(ids.split(","));
    }
}

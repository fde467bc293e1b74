package io.flowsql.knowledge;

import io.flowsql.pipeline.RequestContext;

import java.util.List;

/**
 * Puts the definitions a question uses into its evidence, the field every preset's prompts already show (BIRD's
 * "evidence"), after any evidence the question brought, and names them in the request's notes so the answer can say
 * which entries it used.
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
        for (KnowledgeEntry e : entries) {
            if (evidence.length() > 0) {
                evidence.append("; ");
            }
            evidence.append('"').append(e.term.strip()).append("\" means: ").append(e.definition.strip());
        }
        ctx.evidence = evidence.toString();
        ctx.notes.put(USED_NOTE, String.join(",", entries.stream().map(e -> e.knowledgeId).toList()));
    }

    /** The knowledge ids {@code ctx}'s prompts carried (empty when none). */
    public static List<String> used(RequestContext ctx) {
        String ids = ctx.notes.get(USED_NOTE);
        return ids == null || ids.isBlank() ? List.of() : List.of(ids.split(","));
    }
}

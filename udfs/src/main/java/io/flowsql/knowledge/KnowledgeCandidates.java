package io.flowsql.knowledge;

import io.flowsql.pipeline.RequestContext;
import java.util.ArrayList;
import java.util.List;

/**
 * The definitions a question may use beyond those whose term it mentions, carried in the request's notes from the
 * {@code knowledge} operator (which holds the book but may not wait on I/O) to the first stage that runs for the
 * request, where {@link SimilarKnowledge} embeds them; taken (removed) there, so no later stage weighs them again.
 */
public final class KnowledgeCandidates {
    /** Note holding the candidates: {@code id TAB term TAB definition}, one per row. */
    public static final String NOTE = "knowledge.candidates";

    private KnowledgeCandidates() {}

    public static void offer(RequestContext ctx, List<KnowledgeEntry> candidates) {
        if (candidates.isEmpty()) {
            return;
        }
        StringBuilder note = new StringBuilder();
        for (KnowledgeEntry e : candidates) {
            note.append(note.length() == 0 ? "" : "\n").append(flat(e.knowledgeId)).append('\t')
                    .append(flat(e.term)).append('\t').append(flat(e.definition));
        }
        ctx.notes.put(NOTE, note.toString());
    }

    /** The candidates offered to {@code ctx}, removed from its notes (empty when none). */
    public static List<KnowledgeEntry> take(RequestContext ctx) {
        String note = ctx.notes.remove(NOTE);
        List<KnowledgeEntry> out = new ArrayList<>();
        if (note == null || note.isBlank()) {
            return out;
        }
        for (String row : note.split("\n")) {
            String[] parts = row.split("\t", 3);
            if (parts.length == 3) {
                out.add(KnowledgeEntry.add(parts[0], ctx.dbId, parts[1], parts[2], 0));
            }
        }
        return out;
    }

    private static String flat(String text) {
        return text == null ? "" : text.strip().replaceAll("[\\t\\r\\n]+", " ");
    }
}

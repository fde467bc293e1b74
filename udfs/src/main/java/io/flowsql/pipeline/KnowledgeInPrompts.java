package io.flowsql.pipeline;

import io.flowsql.llm.ChatMessage;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Which stage's prompts carried which knowledge entry: the request offers each stage its entries' evidence lines
 * (one note, {@code id TAB line} per row); a chat call whose messages contain a line names that entry in the stage's
 * trace ({@link StageTrace#knowledgeUsed}), kept in the request's notes by stage name when the stage ends ({@link #keep})
 * and named in that stage's trace entry of the answer. So the per-stage trace says where a definition was used, not
 * only the answer.
 */
public final class KnowledgeInPrompts {
    /** Note holding the entries attached to the request: {@code knowledge id TAB evidence line}, one per row. */
    public static final String LINES_NOTE = "knowledge.lines";

    private KnowledgeInPrompts() {}

    /**
     * Records the evidence line each entry put into {@code ctx}'s prompts (ids and lines in the same order), after the
     * lines already recorded (term matches first, then embedding matches).
     */
    public static void offer(RequestContext ctx, List<String> ids, List<String> lines) {
        String before = ctx.notes.get(LINES_NOTE);
        StringBuilder note = new StringBuilder(before == null ? "" : before);
        for (int i = 0; i < ids.size(); i++) {
            note.append(note.length() == 0 ? "" : "\n").append(ids.get(i)).append('\t').append(oneLine(lines.get(i)));
        }
        ctx.notes.put(LINES_NOTE, note.toString());
    }

    /** Hands a stage's trace the lines its request was offered, so its chat calls can be matched against them. */
    public static void offerTo(RequestContext ctx, StageTrace trace) {
        String note = ctx.notes.get(LINES_NOTE);
        if (note == null || note.isBlank()) {
            return;
        }
        Map<String, String> lines = new LinkedHashMap<>();
        for (String row : note.split("\n")) {
            int tab = row.indexOf('\t');
            if (tab > 0) {
                lines.put(row.substring(0, tab), row.substring(tab + 1));
            }
        }
        trace.knowledgeOffered = lines;
    }

    /** Names in {@code trace} the offered entries whose line one of {@code messages} contains. */
    public static void record(StageTrace trace, List<ChatMessage> messages) {
        if (trace == null || trace.knowledgeOffered == null) {
            return;
        }
        LinkedHashSet<String> found = new LinkedHashSet<>();
        for (Map.Entry<String, String> offered : trace.knowledgeOffered.entrySet()) {
            if (messages.stream().anyMatch(m -> m.content().contains(offered.getValue()))) {
                found.add(offered.getKey());
            }
        }
        if (found.isEmpty()) {
            return;
        }
        synchronized (trace) {
            LinkedHashSet<String> all = new LinkedHashSet<>();
            if (trace.knowledgeUsed != null && !trace.knowledgeUsed.isBlank()) {
                all.addAll(List.of(trace.knowledgeUsed.split(",")));
            }
            all.addAll(found);
            trace.knowledgeUsed = String.join(",", all);
        }
    }

    /** The note prefix under which a finished stage's used entries are kept, by stage name. */
    static final String USED_BY_PREFIX = "knowledge.used@";

    /** When a stage ends: keeps the entries its prompts carried in {@code ctx}'s notes under its name (no id twice). */
    public static void keep(RequestContext ctx, StageTrace trace) {
        if (trace.knowledgeUsed == null || trace.knowledgeUsed.isBlank()) {
            return;
        }
        LinkedHashSet<String> all = new LinkedHashSet<>(usedBy(ctx, trace.stage));
        all.addAll(List.of(trace.knowledgeUsed.split(",")));
        ctx.notes.put(USED_BY_PREFIX + trace.stage, String.join(",", all));
    }

    /** The knowledge ids the prompts of stage {@code stage} carried for {@code ctx} (empty when none). */
    public static List<String> usedBy(RequestContext ctx, String stage) {
        String ids = ctx.notes.get(USED_BY_PREFIX + stage);
        return ids == null || ids.isBlank() ? List.of() : List.of(ids.split(","));
    }

    /** As prompts show evidence: on one line (see the agents' {@code SchemaContext.oneLine}). */
    private static String oneLine(String text) {
        return text.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}

package io.flowsql.agents.opensearch.fewshot;

import io.flowsql.pipeline.LiveFeedback;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.access.DataDoors;
import io.flowsql.sql.catalog.SchemaCatalog;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * {@code opensearch.fewshot} (LOCAL): masks the question with its database's schema and retrieves the most
 * similar examples from the library; {@code notes["fewshot.examples"]} lists their ids with the similarity
 * ({@code spider-dev#12=0.83,...}), which {@code opensearch.generate} shows in its prompt. Without a library the
 * prompt keeps its two fixed examples and the stage notes so.
 */
public final class FewShotStage implements Stage.Local {
    public static final String NOTE = "fewshot.examples";

    private final ExampleLibrary library;
    private final DataDoors doors;
    private final int k;
    private final boolean otherDatabasesOnly;

    /** @param library null when no library is configured */
    public FewShotStage(ExampleLibrary library, SchemaCatalog catalog, int k) {
        this(library, catalog, k, false);
    }

    /**
     * @param otherDatabasesOnly the library's examples of the question's own database are never chosen (the live
     *                           examples learned from this database's feedback still are)
     */
    public FewShotStage(ExampleLibrary library, SchemaCatalog catalog, int k, boolean otherDatabasesOnly) {
        this(library, DataDoors.open(null, catalog), k, otherDatabasesOnly);
    }

    /** As above, masking with the schema the question's tenant may see, read through its door. */
    public FewShotStage(ExampleLibrary library, DataDoors doors, int k, boolean otherDatabasesOnly) {
        this.library = library;
        this.doors = doors;
        this.k = k;
        this.otherDatabasesOnly = otherDatabasesOnly;
    }

    @Override
    public void runLocal(RequestContext ctx, StageTrace trace) {
        List<LiveFeedback.Example> live = LiveFeedback.examples(ctx);
        if ((library == null && live.isEmpty()) || k <= 0) {
            trace.note = "no example library: the prompt's fixed examples";
            return;
        }
        DatabaseSchema schema = doors.door(ctx.dbId, ctx.tenant).schema();
        String masked = QuestionMasker.mask(ctx.question, schema);
        java.util.function.Predicate<FewShotExample> shown = e -> doors.door(e.dbId(), ctx.tenant).mayShow(e.sql());
        List<ExampleLibrary.Hit> hits = new ArrayList<>(liveLibrary(live, schema)
                .similar(masked, ctx.dbId, ctx.question, k, false, shown));
        if (library != null) {
            hits.addAll(library.similar(masked, ctx.dbId, ctx.question, k, otherDatabasesOnly, shown));
        }
        // the same retrieval over the file's library and the request's live examples; a live example wins a tie
        hits.sort(Comparator.comparingDouble(ExampleLibrary.Hit::similarity).reversed());
        hits = hits.subList(0, Math.min(k, hits.size()));
        ctx.notes.put(NOTE, hits.stream()
                .map(h -> h.example().id() + "=" + String.format(Locale.ROOT, "%.2f", h.similarity()))
                .collect(Collectors.joining(",")));
        LiveFeedback.used(trace, hits.stream().map(h -> h.example().id())
                .filter(id -> id.startsWith(LiveFeedback.ID_PREFIX))
                .map(id -> id.substring(LiveFeedback.ID_PREFIX.length())).toList());
        trace.note = hits.size() + " examples for \"" + masked + "\"";
    }

    /** The request's live examples (its own database's, from the feedback topic) as a library, masked like the file's. */
    private static ExampleLibrary liveLibrary(List<LiveFeedback.Example> live, DatabaseSchema schema) {
        return new ExampleLibrary(live.stream()
                .map(e -> new FewShotExample(LiveFeedback.ID_PREFIX + e.feedbackId(), e.dbId(), e.question(),
                        QuestionMasker.mask(e.question(), schema), null, e.sql()))
                .toList());
    }

    /** The examples a request retrieved, as the generator's prompt shows them; "(none)" when there are none. */
    public static String promptText(RequestContext ctx, ExampleLibrary library) {
        String ids = ctx.notes.get(NOTE);
        if (ids == null || ids.isBlank()) {
            return "(none)";
        }
        List<LiveFeedback.Example> live = LiveFeedback.examples(ctx);
        StringBuilder out = new StringBuilder();
        for (String entry : ids.split(",")) {
            String id = entry.substring(0, entry.lastIndexOf('='));
            java.util.Optional<FewShotExample> example = id.startsWith(LiveFeedback.ID_PREFIX)
                    ? live.stream().filter(e -> id.equals(LiveFeedback.ID_PREFIX + e.feedbackId())).findFirst()
                            .map(e -> new FewShotExample(id, e.dbId(), e.question(), null, null, e.sql()))
                    : library == null ? java.util.Optional.empty() : library.byId(id);
            example.ifPresent(e -> {
                out.append("Example question: ").append(e.question().strip()).append('\n');
                if (e.reasoning() != null && !e.reasoning().isBlank()) {
                    out.append("Example reasoning: ").append(e.reasoning().strip()).append('\n');
                }
                out.append("Example SQL: ").append(e.sql().strip().replaceAll("\\s+", " ")).append('\n');
            });
        }
        return out.isEmpty() ? "(none)" : out.toString().strip();
    }
}

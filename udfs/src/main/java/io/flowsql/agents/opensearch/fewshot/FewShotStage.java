package io.flowsql.agents.opensearch.fewshot;

import io.flowsql.agents.common.SqlOneLine;
import io.flowsql.pipeline.LiveFeedback;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.access.DataDoor;
import io.flowsql.access.DataDoors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code opensearch.fewshot} (LOCAL): masks the question with its database's schema and retrieves the most
 * similar examples from the library; {@code notes["fewshot.examples"]} lists their ids with the similarity
 * ({@code spider-dev#12=0.83,...}), which {@code opensearch.generate} shows in its prompt. Without a library the
 * prompt keeps its two fixed examples and the stage notes so.
 */
public final class FewShotStage implements Stage.Local {
    public static final String NOTE = "fewshot.examples";

    private final DataDoors doors;
    private final int k;
    private final boolean otherDatabasesOnly;

    /**
     * @param doors              the room: each request's door shows the schema its tenant may see and the room's example
     *                           library as that tenant may see it (none held: the prompt's fixed examples)
     * @param otherDatabasesOnly the library's examples of the question's own database are never chosen (the live
     *                           examples learned from this database's feedback still are)
     */
    public FewShotStage(DataDoors doors, int k, boolean otherDatabasesOnly) {
        this.doors = doors;
        this.k = k;
        this.otherDatabasesOnly = otherDatabasesOnly;
    }

    @Override
    public void runLocal(RequestContext ctx, StageTrace trace) {
        List<LiveFeedback.Example> live = LiveFeedback.examples(ctx);
        DataDoor door = doors.door(ctx.dbId, ctx.tenant);
        Optional<ExampleLibrary.Shown> library = door.learned(ExampleLibrary.class);
        if ((library.isEmpty() && live.isEmpty()) || k <= 0) {
            trace.note = "no example library: the prompt's fixed examples";
            return;
        }
        DatabaseSchema schema = door.schema();
        String masked = QuestionMasker.mask(ctx.question, schema);
        List<ExampleLibrary.Hit> hits = new ArrayList<>(liveLibrary(live, schema, door)
                .similar(masked, ctx.question, k, false));
        library.ifPresent(l -> hits.addAll(l.similar(masked, ctx.question, k, otherDatabasesOnly)));
        // the same retrieval over the file's library and the request's live examples; a live example wins a tie
        hits.sort(Comparator.comparingDouble(ExampleLibrary.Hit::similarity).reversed());
        List<ExampleLibrary.Hit> top = hits.subList(0, Math.min(k, hits.size()));
        ctx.notes.put(NOTE, top.stream()
                .map(h -> h.example().id() + "=" + String.format(Locale.ROOT, "%.2f", h.similarity()))
                .collect(Collectors.joining(",")));
        LiveFeedback.used(trace, top.stream().map(h -> h.example().id())
                .filter(id -> id.startsWith(LiveFeedback.ID_PREFIX))
                .map(id -> id.substring(LiveFeedback.ID_PREFIX.length())).toList());
        trace.note = top.size() + " examples for \"" + masked + "\"";
    }

    /** The request's live examples (its own database's, from the feedback topic) as a library, masked like the file's. */
    private static ExampleLibrary.Shown liveLibrary(List<LiveFeedback.Example> live, DatabaseSchema schema, DataDoor door) {
        return ExampleLibrary.Shown.of(live.stream()
                .map(e -> new FewShotExample(LiveFeedback.ID_PREFIX + e.feedbackId(), e.dbId(), e.question(),
                        QuestionMasker.mask(e.question(), schema), null, e.sql()))
                .toList(), door);
    }

    /** The examples a request retrieved, as the generator's prompt shows them; "(none)" when there are none. */
    public static String promptText(RequestContext ctx, DataDoors doors) {
        Optional<ExampleLibrary.Shown> library = doors.door(ctx.dbId, ctx.tenant).learned(ExampleLibrary.class);
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
                    : library.flatMap(l -> l.byId(id));
            example.ifPresent(e -> {
                out.append("Example question: ").append(e.question().strip()).append('\n');
                if (e.reasoning() != null && !e.reasoning().isBlank()) {
                    out.append("Example reasoning: ").append(e.reasoning().strip()).append('\n');
                }
                out.append("Example SQL: ").append(SqlOneLine.of(e.sql())).append('\n');
            });
        }
        return out.isEmpty() ? "(none)" : out.toString().strip();
    }
}

package io.flowsql.agents.opensearch.fewshot;

import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.catalog.SchemaCatalog;
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
    private final SchemaCatalog catalog;
    private final int k;

    /** @param library null when no library is configured */
    public FewShotStage(ExampleLibrary library, SchemaCatalog catalog, int k) {
        this.library = library;
        this.catalog = catalog;
        this.k = k;
    }

    @Override
    public void runLocal(RequestContext ctx, StageTrace trace) {
        if (library == null || k <= 0) {
            trace.note = "no example library: the prompt's fixed examples";
            return;
        }
        String masked = QuestionMasker.mask(ctx.question, catalog.schema(ctx.dbId));
        List<ExampleLibrary.Hit> hits = library.similar(masked, ctx.dbId, ctx.question, k);
        ctx.notes.put(NOTE, hits.stream()
                .map(h -> h.example().id() + "=" + String.format(Locale.ROOT, "%.2f", h.similarity()))
                .collect(Collectors.joining(",")));
        trace.note = hits.size() + " examples for \"" + masked + "\"";
    }

    /** The examples a request retrieved, as the generator's prompt shows them; "(none)" when there are none. */
    public static String promptText(RequestContext ctx, ExampleLibrary library) {
        String ids = ctx.notes.get(NOTE);
        if (library == null || ids == null || ids.isBlank()) {
            return "(none)";
        }
        StringBuilder out = new StringBuilder();
        for (String entry : ids.split(",")) {
            String id = entry.substring(0, entry.lastIndexOf('='));
            library.byId(id).ifPresent(e -> {
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

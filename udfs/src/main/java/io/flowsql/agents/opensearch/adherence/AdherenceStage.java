package io.flowsql.agents.opensearch.adherence;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.agents.opensearch.OpenSearchGenerateStage;
import io.flowsql.agents.opensearch.ProgressiveAnswer;
import io.flowsql.agents.opensearch.ProgressiveGenerator;
import io.flowsql.agents.opensearch.QuestionValues;
import io.flowsql.llm.ChatRequest;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.flowsql.agents.opensearch.extract.Extraction;
import java.util.concurrent.CompletableFuture;

/**
 * {@code opensearch.adherence}: each generated sample whose SQL leaves out columns or values the extraction step found
 * ({@link Extraction}: the extracted columns, the values retrieved from the database; without an extraction, what the
 * sample's own {@code #columns}/{@code #values} declared; {@link ExtractionAdherence}) is generated again once, with what it missed; the new
 * answer replaces the sample when it misses less. Notes: {@code adherence.<source>} = what was missed and
 * whether the re-generation was taken ("regenerated") or not ("kept"). The authors' code has no such step: it runs only
 * when asked for ({@code agents.opensearch-adherence}), and is skipped otherwise.
 */
public final class AdherenceStage implements Stage {
    public static final String NOTE_PREFIX = "adherence.";

    private final AgentCall call;
    private final SchemaContext schemas;
    private final QuestionValues values;
    private final PromptPair prompt = PromptPair.load("opensearch/adherence");
    private final boolean enabled;

    public AdherenceStage(AgentCall call, SchemaContext schemas, QuestionValues values) {
        this(call, schemas, values, true);
    }

    /** @param enabled false: the stage applies to no request (the authors' pipeline) */
    public AdherenceStage(AgentCall call, SchemaContext schemas, QuestionValues values, boolean enabled) {
        this.call = call;
        this.schemas = schemas;
        this.values = values;
        this.enabled = enabled;
    }

    @Override
    public boolean appliesTo(RequestContext ctx) {
        return enabled && Stage.super.appliesTo(ctx);
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        List<CompletableFuture<Void>> work = new ArrayList<>();
        PromptFields fields = null;
        // as the paper: the samples are checked against the extraction step's columns and the values retrieval found
        // in the database; without an extraction (opensearch.extract off) against what each sample declared
        Optional<Extraction> extraction = Extraction.of(ctx);
        for (Candidate c : ctx.candidates) {
            if (c.executed || !c.source.startsWith(OpenSearchGenerateStage.SOURCE_PREFIX)) {
                continue;
            }
            String columns = extraction.map(e -> String.join(", ", e.columns()))
                    .orElseGet(() -> ctx.notes.getOrDefault(OpenSearchGenerateStage.DECLARED_COLUMNS + c.source, ""));
            String declared = extraction.map(e -> String.join(", ", e.retrievedValues()))
                    .orElseGet(() -> ctx.notes.getOrDefault(OpenSearchGenerateStage.DECLARED_VALUES + c.source, ""));
            List<String> missed = ExtractionAdherence.missed(c.sql, columns, declared);
            if (missed.isEmpty()) {
                continue;
            }
            if (fields == null) {
                fields = schemas.promptFields(ctx).with("values", values.text(ctx));
            }
            work.add(regenerate(ctx, fields, c, columns, declared, missed, trace));
        }
        int asked = work.size();
        return CompletableFuture.allOf(work.toArray(CompletableFuture[]::new))
                .thenRun(() -> trace.note = asked == 0 ? "every sample adheres" : asked + " samples re-generated");
    }

    private CompletableFuture<Void> regenerate(RequestContext ctx, PromptFields shared, Candidate c, String columns,
                                               String declared, List<String> missed, StageTrace trace) {
        PromptFields vars = shared
                .with("sql", SchemaContext.oneLine(c.sql))
                .with("columns", columns.isBlank() ? "(none)" : SchemaContext.oneLine(columns))
                .with("declared_values", declared.isBlank() ? "(none)" : SchemaContext.oneLine(declared))
                .with("missed", String.join(", ", missed));
        ChatRequest request = prompt.request(vars);
        return call.ask(request, ProgressiveGenerator::parse, trace).handle((ProgressiveAnswer again, Throwable failed) -> {
            // a re-generation that cannot be read leaves the sample as it was; the request goes on
            boolean take = failed == null
                    && (Extraction.of(ctx).isPresent() ? ExtractionAdherence.missed(again.sql(), columns, declared)
                            : ExtractionAdherence.missed(again.sql(), again.columns(), again.values())).size() < missed.size();
            synchronized (ctx) {
                if (take) {
                    c.sql = again.sql();
                    ctx.notes.put(OpenSearchGenerateStage.DECLARED_COLUMNS + c.source, again.columns());
                    ctx.notes.put(OpenSearchGenerateStage.DECLARED_VALUES + c.source, again.values());
                }
                ctx.notes.put(NOTE_PREFIX + c.source, "missed " + String.join(", ", missed) + "; "
                        + (take ? "regenerated" : failed == null ? "kept" : "kept (re-generation failed)"));
            }
            return null;
        });
    }
}

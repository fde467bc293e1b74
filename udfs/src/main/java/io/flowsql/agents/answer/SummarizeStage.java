package io.flowsql.agents.answer;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.AnswerStatus;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.pipeline.Summaries;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The {@code answer.summarize} stage: a short answer in the question's own language, written by the model from the
 * question, the SQL and a bounded slice of the rows the answer already holds (so never a row the tenant may not read);
 * an empty result or a failure is said plainly. Runs only for a request that asks for it (its question's
 * {@code options.summarize}, or its preset in {@code agent.summarize.presets}); a summary the model could not write
 * leaves the answer as it was (noted in the trace), it never fails the request.
 */
public final class SummarizeStage implements Stage {
    private final AgentCall call;
    private final Function<RequestContext, PromptFields> frames;
    private final Set<String> presets;
    private final ResultSlice slice;
    private final PromptPair prompt = PromptPair.load("answer/summarize");

    public SummarizeStage(AgentCall call, Function<RequestContext, PromptFields> frames, Set<String> presets,
                          ResultSlice slice) {
        this.call = call;
        this.frames = frames;
        this.presets = Set.copyOf(presets);
        this.slice = slice;
    }

    /** Answered and failed requests that asked for a summary; a clarification or refusal already has its reply. */
    @Override
    public boolean appliesTo(RequestContext ctx) {
        return (ctx.hasStatus(AnswerStatus.ANSWERED) || ctx.hasStatus(AnswerStatus.FAILED))
                && Summaries.requested(ctx, presets);
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        Optional<Candidate> result = Summaries.answerCandidate(ctx);
        PromptFields fields = frames.apply(ctx)
                .with("outcome", outcome(ctx, result))
                .with("sql", ctx.finalSql == null ? "(none)" : ctx.finalSql.strip())
                .with("result", result.map(slice::render).orElse("(no rows)"));
        return call.ask(prompt.request(fields).withSampling(0.0, null), SummarizeStage::parse, trace)
                .handle((summary, error) -> {
                    if (error != null) {
                        trace.note = "no summary: " + (error.getCause() == null ? error : error.getCause()).getMessage();
                    } else {
                        ctx.notes.put(Summaries.SUMMARY_NOTE, summary);
                        trace.note = summary.length() + " chars";
                    }
                    return null;
                });
    }

    /** What the model is told happened, so an empty result or a failure is said as such. */
    private static String outcome(RequestContext ctx, Optional<Candidate> result) {
        if (ctx.hasStatus(AnswerStatus.FAILED)) {
            return "failed: no answer could be found (" + (ctx.error == null ? "no reason given" : ctx.error) + ")";
        }
        if (result.isEmpty()) {
            return "answered, but the result was not kept";
        }
        int rows = Math.max(result.get().rowCount, result.get().preview.size());
        return rows == 0 ? "answered: the query returned no rows" : "answered: " + rows + " row(s)";
    }

    /** The reply's {@code summary}, one paragraph of at most {@value #MAX_CHARS} characters; empty when missing. */
    static Optional<String> parse(String text) {
        return ModelOutput.json(text)
                .map(node -> node.path("summary").asText("").strip())
                .filter(s -> !s.isEmpty())
                .map(s -> s.length() > MAX_CHARS ? s.substring(0, MAX_CHARS - 1) + "…" : s);
    }

    static final int MAX_CHARS = 600;

    /**
     * The rows shown to the model: the first {@code rows} (at most {@value #MAX_ROWS}, the answer's own preview) of the
     * rows the answer holds, each cell cut to {@code cellChars} characters.
     */
    public record ResultSlice(int rows, int cellChars) {
        public static final int MAX_ROWS = 20;
        public static final ResultSlice DEFAULT = new ResultSlice(10, 60);

        public ResultSlice {
            if (rows < 1 || rows > MAX_ROWS || cellChars < 8) {
                throw new IllegalArgumentException("a result slice shows 1.." + MAX_ROWS + " rows of cells of 8+ characters");
            }
        }

        String render(Candidate result) {
            StringBuilder text = new StringBuilder(String.join(" | ", result.previewColumns));
            List<List<String>> all = result.previewRows();
            List<List<String>> shown = all.subList(0, Math.min(rows, all.size()));
            for (List<String> row : shown) {
                text.append('\n').append(String.join(" | ", row.stream().map(this::cell).toList()));
            }
            int total = Math.max(result.rowCount, all.size());
            if (total > shown.size()) {
                text.append("\n(").append(total - shown.size()).append(" more rows not shown)");
            }
            return text.toString();
        }

        private String cell(String value) {
            if (value == null) {
                return "NULL";
            }
            String one = value.replaceAll("\\s+", " ");
            return one.length() > cellChars ? one.substring(0, cellChars) + "…" : one;
        }
    }
}

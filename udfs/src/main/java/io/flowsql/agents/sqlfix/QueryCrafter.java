package io.flowsql.agents.sqlfix;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.llm.ChatRequest;
import io.flowsql.pipeline.StageTrace;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * SQLFixAgent's QueryCrafter (Cen et al., §3.2): for a flagged SQL, rewrites the question into k
 * paraphrases (one call) and writes a candidate SQL for each (one call per paraphrase, in parallel), so the
 * refiner has alternatives that do not inherit the flagged SQL's reading of the question.
 */
public final class QueryCrafter {
    private final AgentCall call;
    private final PromptPair paraphrasePrompt;
    private final PromptPair generatePrompt;

    public QueryCrafter(AgentCall call) {
        this.call = call;
        this.paraphrasePrompt = PromptPair.load("sqlfix/craft-paraphrase");
        this.generatePrompt = PromptPair.load("sqlfix/craft-generate");
    }

    /** k paraphrases, each with its SQL or the reason it has none; fails only when no paraphrase could be read. */
    public CompletableFuture<List<CraftedQuery>> craft(PromptFields frame, String flaggedSql, List<String> reasons,
                                                       int k, StageTrace trace) {
        PromptFields vars = frame
                .with("sql", flaggedSql == null ? "(no SQL was produced)" : flaggedSql)
                .with("reasons", String.join("; ", reasons))
                .with("k", k);
        ChatRequest request = paraphrasePrompt.request(vars);
        return call.ask(request, text -> paraphrases(text, k), trace)
                .thenCompose(paraphrases -> generateAll(frame, paraphrases, reasons, trace));
    }

    private CompletableFuture<List<CraftedQuery>> generateAll(PromptFields frame, List<String> paraphrases,
                                                              List<String> reasons, StageTrace trace) {
        List<CompletableFuture<CraftedQuery>> all = new ArrayList<>();
        for (String paraphrase : paraphrases) {
            all.add(generate(frame, paraphrase, reasons, trace));
        }
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new))
                .thenApply(done -> all.stream().map(CompletableFuture::join).toList());
    }

    private CompletableFuture<CraftedQuery> generate(PromptFields frame, String paraphrase, List<String> reasons,
                                                     StageTrace trace) {
        PromptFields vars = frame.asking(paraphrase)
                .with("original_question", frame.question())
                .with("reasons", String.join("; ", reasons));
        ChatRequest request = generatePrompt.request(vars);
        return call.ask(request, ModelOutput::sql, trace)
                .handle((sql, error) -> error == null ? new CraftedQuery(paraphrase, sql, null)
                        : new CraftedQuery(paraphrase, null, String.valueOf(error.getMessage())));
    }

    /** The distinct non-blank paraphrases of {"paraphrases": [...]} (or a bare list), at most k; none is unreadable. */
    static Optional<List<String>> paraphrases(String text, int k) {
        Optional<JsonNode> json = ModelOutput.json(text);
        if (json.isEmpty()) {
            return Optional.empty();
        }
        JsonNode list = json.get().isArray() ? json.get() : json.get().path("paraphrases");
        Set<String> distinct = new LinkedHashSet<>();
        list.forEach(p -> {
            if (p.isTextual() && !p.asText().isBlank()) {
                distinct.add(SchemaContext.oneLine(p.asText()));
            }
        });
        return distinct.isEmpty() ? Optional.empty() : Optional.of(distinct.stream().limit(k).toList());
    }
}

package io.flowsql.agents.opensearch;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.llm.ChatRequest;
import io.flowsql.pipeline.StageTrace;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * OpenSearch-SQL §3.3 generation: n samples at a temperature in the progressive format (#reason, #columns,
 * #values, #SELECT, #SQL-like, #SQL), so the vote has several candidates to choose from.
 */
public final class ProgressiveGenerator {
    static final List<String> TAGS = List.of("reason", "columns", "values", "SELECT", "SQL-like", "SQL");

    private final AgentCall call;
    private final int samples;
    private final double temperature;
    private final PromptPair prompt = PromptPair.load("opensearch/generate");

    public ProgressiveGenerator(AgentCall call, int samples, double temperature) {
        this.call = call;
        this.samples = samples;
        this.temperature = temperature;
    }

    /** @param fields the shared prompt fields plus {@code values} */
    public CompletableFuture<List<ProgressiveAnswer>> generate(PromptFields fields, StageTrace trace) {
        ChatRequest request = prompt.request(fields)
                .withSampling(temperature, samples);
        return call.askSamples(request, ProgressiveGenerator::parse, trace);
    }

    /** The answer when its #SQL section (or, failing that, a ```sql fence) holds a query. */
    public static Optional<ProgressiveAnswer> parse(String text) {
        Map<String, String> sections = ModelOutput.tagged(text, TAGS);
        Optional<String> sql = Optional.ofNullable(sections.get("SQL"))
                .flatMap(section -> ModelOutput.sql("#SQL:\n" + section))
                .or(() -> ModelOutput.sql(text));
        return sql.map(q -> new ProgressiveAnswer(
                sections.getOrDefault("reason", ""), sections.getOrDefault("columns", ""),
                sections.getOrDefault("values", ""), sections.getOrDefault("SELECT", ""),
                sections.getOrDefault("SQL-like", ""), q));
    }
}

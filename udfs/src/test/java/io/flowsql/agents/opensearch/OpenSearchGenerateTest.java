package io.flowsql.agents.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.RequestContext;
import java.util.List;
import org.junit.jupiter.api.Test;

/** OpenSearch-SQL generation with scripted samples: progressive format, n and temperature, re-ask when nothing is readable. */
class OpenSearchGenerateTest {
    private static final String GOOD = "#reason: singers from France\n#columns: singer.Name, singer.Country\n"
            + "#values: singer.Country = 'France'\n#SELECT: SELECT Name\n#SQL-like: SELECT Name FROM singer WHERE Country = 'France'\n"
            + "#SQL:\n```sql\nSELECT Name FROM singer WHERE Country = 'France'\n```";

    private static RequestContext request() {
        RequestContext ctx = new RequestContext();
        ctx.dbId = "concert_singer";
        ctx.question = "What are the names of the singers from France?";
        return ctx;
    }

    @Test
    void parsesEveryProgressiveField() {
        ProgressiveAnswer answer = ProgressiveGenerator.parse(GOOD).orElseThrow();
        assertThat(answer.columns()).isEqualTo("singer.Name, singer.Country");
        assertThat(answer.sqlLike()).isEqualTo("SELECT Name FROM singer WHERE Country = 'France'");
        assertThat(answer.sql()).isEqualTo("SELECT Name FROM singer WHERE Country = 'France'");
        assertThat(ProgressiveGenerator.parse("#reason: r\n#SQL-like: SELECT x FROM y")).isEmpty();
    }

    @Test
    void samplesBecomeNumberedCandidates() {
        ScriptedLlmClient llm = ScriptedLlmClient.responds(r -> List.of(GOOD, "I am not sure", GOOD.replace("'France'", "'france'")));
        RequestContext ctx = request();
        new OpenSearchGenerateStage(new ProgressiveGenerator(new AgentCall(llm), 3, 0.9), SpiderAgentParts.SCHEMAS,
                6).applyAs("opensearch.generate", ctx).join();
        assertThat(ctx.candidates).extracting(c -> c.source).containsExactly("opensearch#0", "opensearch#1");
        assertThat(ctx.candidates.get(1).sql).contains("'france'");
        ChatRequest asked = llm.requests().get(0);
        assertThat(asked.stage()).isEqualTo("opensearch.generate");
        assertThat(asked.n()).isEqualTo(3);
        assertThat(asked.temperature()).isEqualTo(0.9);
        assertThat(asked.messages().get(1).content()).contains("Database: concert_singer", "singer.Country = 'France'", "Schema:");
    }

    @Test
    void unreadableSamplesAreReaskedOnceThenTheStageFails() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds("Sorry, I cannot help.");
        RequestContext ctx = request();
        new OpenSearchGenerateStage(new ProgressiveGenerator(new AgentCall(llm), 2, 0.7), SpiderAgentParts.SCHEMAS,
                6).applyAs("opensearch.generate", ctx).join();
        assertThat(llm.requests()).hasSize(2);
        assertThat(ctx.status).isEqualTo("failed");
        assertThat(ctx.failedStage).isEqualTo("opensearch.generate");
        assertThat(ctx.error).contains("UNPARSEABLE_OUTPUT");
    }
}

package io.flowsql.agents;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.sql.render.TokenCounter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Every MAG-SQL and OpenSearch-SQL prompt renders with the real schema of a Spider database, within a sane token budget. */
class PromptRenderingTest {
    private static final Logger LOG = LoggerFactory.getLogger(PromptRenderingTest.class);
    private static final List<String> PROMPTS = List.of("magsql/summarize", "magsql/link", "magsql/decompose",
            "magsql/generate_first", "magsql/generate_next", "magsql/refine", "opensearch/generate");

    @Test
    void everyPromptRendersWithARealSchema() {
        String schema = SpiderAgentParts.VIEWS.full(SpiderAgentParts.CATALOG.schema("world_1"));
        TokenCounter tokens = new TokenCounter();
        int schemaTokens = tokens.count(schema);
        for (String base : PROMPTS) {
            PromptPair pair = PromptPair.load(base);
            PromptFields vars = PromptFields.none();
            for (String p : pair.placeholders()) {
                vars = vars.with(p, "x");
            }
            vars = vars.with("db_id", "world_1").with("question", "What is the total population of Gelderland district?")
                    .with("schema", schema);
            int count = pair.tokenCount(vars);
            LOG.info("prompt {} (task {}) renders to {} tokens with world_1", base, pair.task(), count);
            assertThat(pair.task()).startsWith(base.startsWith("magsql") ? "magsql." : "opensearch.");
            String user = pair.render(vars).get(1).content();
            assertThat(user).startsWith("Database: world_1").contains("Schema:\n" + schema);
            if (pair.placeholders().contains("question")) {
                assertThat(user).contains("Question: What is the total population of Gelderland district?");
            }
            assertThat(count).isGreaterThan(schemaTokens).isLessThan(schemaTokens + 1500);
        }
    }
}

package io.flowsql.agents.sqlfix;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.PromptPair;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Every SQLFixAgent and MMSQL prompt renders with the real schema of a Spider database, names its stage, and stays within a sane token budget. */
class PromptRenderTest {
    private static final Logger LOG = LoggerFactory.getLogger(PromptRenderTest.class);
    private static final List<String> PROMPTS = List.of("sqlfix/review", "sqlfix/craft-paraphrase", "sqlfix/craft-generate",
            "sqlfix/refine", "mmsql/detect", "mmsql/readings");

    @Test
    void everyPromptRendersWithARealSchema() {
        PromptFields frame = SpiderFrames.frame("world_1", "Which countries have more than 10 cities?",
                "Turn 1 [answerable]: How many countries are there?\n  SQL: SELECT count(*) FROM country");
        PromptFields vars = frame.with("sql", "SELECT name FROM country").with("execution", "3 rows").with("reasons", "r")
                .with("k", 3).with("original_question", frame.question()).with("candidates", "(none)")
                .with("failures", "(none)").with("repairs", "(none)");
        for (String base : PROMPTS) {
            PromptPair pair = PromptPair.load(base);
            int tokens = pair.tokenCount(vars);
            LOG.info("prompt {} with the world_1 schema: {} tokens", base, tokens);
            assertThat(pair.task()).startsWith(base.substring(0, base.indexOf('/')) + ".");
            assertThat(tokens).as(base).isBetween(300, 4000);
            String user = pair.render(vars).get(1).content();
            assertThat(user).as(base).startsWith("Database: world_1\nSchema:\n").contains("\n-- end of schema --\nQuestion: ")
                    .contains("CREATE TABLE").contains("How many countries are there?");
        }
    }
}

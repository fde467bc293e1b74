package io.flowsql.agents.opensearch;

import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.opensearch.fewshot.ExampleLibrary;
import io.flowsql.agents.opensearch.fewshot.FewShotStage;
import io.flowsql.agents.sqlfix.RepairMemory;
import io.flowsql.agents.sqlfix.RepairRecord;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.LiveFeedback;
import io.flowsql.pipeline.RequestContext;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Live examples (from the feedback topic, attached to the request) in OpenSearch-SQL's retrieval and prompt. */
class LiveFewShotTest {

    private static RequestContext question(String db, String text) {
        RequestContext ctx = new RequestContext();
        ctx.dbId = db;
        ctx.question = text;
        return ctx;
    }

    @Test
    void theStageRanksLiveExamplesOfItsDatabaseWithTheFileLibraryAndTheTraceNamesThem() {
        RequestContext ctx = question("concert_singer", "How many singers do we have in total?");
        LiveFeedback.attach(ctx, List.of(
                new LiveFeedback.Example("fb-1", "concert_singer", "How many singers are there?", null, "SELECT count(*) FROM singer"),
                new LiveFeedback.Example("fb-2", "concert_singer", "List the names of all stadiums.", null, "SELECT name FROM stadium"),
                new LiveFeedback.Example("fb-9", "pets_1", "How many singers are there?", null, "SELECT count(*) FROM pets")),
                List.of());
        ExampleLibrary file = new ExampleLibrary(ExampleLibrary.build(List.<String[]>of(
                new String[] {"spider-dev#1", "pets_1", "What is the average age of pets?", "SELECT avg(pet_age) FROM pets"}),
                SpiderAgentParts.CATALOG));
        new FewShotStage(SpiderAgentParts.ROOM.holding(file), 2, false).applyAs("opensearch.fewshot", ctx).join();

        assertThat(ctx.notes.get(FewShotStage.NOTE)).startsWith("feedback:fb-1=");
        assertThat(ctx.trace.get(0).feedbackUsed).as("the trace names live examples by feedback id").startsWith("fb-1");
        assertThat(ctx.trace.get(0).feedbackUsed).as("another database's example is never used").doesNotContain("fb-9");

        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds("#SQL:\n```sql\nSELECT 1\n```");
        new OpenSearchGenerateStage(new ProgressiveGenerator(new AgentCall(llm), 1, 0.0),
                SpiderAgentParts.schemasHolding(file), 6).applyAs("opensearch.generate", ctx).join();
        String prompt = llm.requests().get(0).messages().get(1).content();
        assertThat(prompt).contains("Example question: How many singers are there?", "Example SQL: SELECT count(*) FROM singer")
                .doesNotContain("FROM pets");
    }

    @Test
    void withoutAFileLibraryLiveExamplesAloneAreRetrieved() {
        RequestContext ctx = question("concert_singer", "How many stadiums are there?");
        LiveFeedback.attach(ctx, List.of(
                new LiveFeedback.Example("fb-3", "concert_singer", "How many concerts are there?", null, "SELECT count(*) FROM concert")),
                List.of());
        new FewShotStage(SpiderAgentParts.ROOM, 3, false).applyAs("opensearch.fewshot", ctx).join();
        assertThat(ctx.notes.get(FewShotStage.NOTE)).startsWith("feedback:fb-3=");
        assertThat(FewShotStage.promptText(ctx, SpiderAgentParts.ROOM)).contains("SELECT count(*) FROM concert");
    }

    @Test
    void liveRepairsRankWithTheRepairMemory() {
        RepairMemory memory = RepairMemory.inMemory();
        memory.add(new RepairRecord("concert_singer", "Names of stadiums?", "SELECT nam FROM stadium", "SELECT name FROM stadium", "typo"));
        RepairRecord live = new RepairRecord("concert_singer", "How many singers are older than 30?",
                "SELECT count(*) FROM singer WHERE age < 30", "SELECT count(*) FROM singer WHERE age > 30", "the comparison");
        List<RepairRecord> shown = memory.similar("How many singers are older than 40?", "SELECT count(*) FROM singer WHERE age < 40", 1, List.of(live));
        assertThat(shown).containsExactly(live);
    }
}

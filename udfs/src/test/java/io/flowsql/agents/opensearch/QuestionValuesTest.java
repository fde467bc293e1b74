package io.flowsql.agents.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.access.DataDoors;
import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.HistoryRenderer;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.sql.SpiderData;
import io.flowsql.sql.index.CachingValueIndexProvider;
import io.flowsql.sql.index.LcsValueScorer;
import io.flowsql.sql.index.NgramValueIndex;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The value index's hits for a question are looked up once and shown the same to every stage (real Spider databases
 * and trigram indexes; the index only counts the lookups it serves).
 */
class QuestionValuesTest {
    private final AtomicInteger lookups = new AtomicInteger();
    private final CachingValueIndexProvider counted = new CachingValueIndexProvider(dbId -> {
        NgramValueIndex index = new NgramValueIndex(CachingValueIndexProvider.loadValues(SpiderAgentParts.LOCATOR, dbId),
                LcsValueScorer.defaults());
        return (text, limit) -> {
            lookups.incrementAndGet();
            return index.find(text, limit);
        };
    }, 32);
    private final SchemaContext schemas = new SchemaContext(
            DataDoors.open(SpiderAgentParts.EXECUTOR, SpiderAgentParts.CATALOG, counted), SpiderAgentParts.VIEWS,
            new HistoryRenderer());

    /** A request as the engine takes it: database and question of a Spider dev entry. */
    private static RequestContext asked(JsonNode entry) {
        RequestContext ctx = new RequestContext();
        ctx.dbId = entry.get("db_id").asText();
        ctx.question = entry.get("question").asText();
        return ctx;
    }

    @Test
    void everyStageOfAQuestionGetsTheFirstLookupsText() throws IOException {
        JsonNode dev = new ObjectMapper().readTree(SpiderData.sharedData().resolve("spider/dev.json").toFile());
        QuestionValues generation = new QuestionValues(schemas, 6);
        QuestionValues alignment = new QuestionValues(schemas, 6);
        int questions = 0;
        int withValues = 0;
        for (int i = 0; i < dev.size(); i += 17) {
            if (!SpiderAgentParts.CATALOG.contains(dev.get(i).get("db_id").asText())) {
                continue;
            }
            String fresh = new QuestionValues(SpiderAgentParts.SCHEMAS, 6).text(asked(dev.get(i)));
            RequestContext ctx = asked(dev.get(i));
            int before = lookups.get();

            assertThat(generation.text(ctx)).as("question %d", i).isEqualTo(fresh);
            assertThat(alignment.text(ctx)).as("question %d, a later stage", i).isEqualTo(fresh);
            assertThat(generation.text(ctx)).isEqualTo(fresh);
            assertThat(lookups.get() - before).as("lookups for question %d", i).isEqualTo(1);
            questions++;
            withValues += fresh.equals("(none)") ? 0 : 1;
        }
        assertThat(questions).isGreaterThan(20);
        assertThat(withValues).as("questions whose values the index found").isPositive();
    }

    @Test
    void aCutSchemaOrAnotherCountLooksUpAgainAndLinkedValuesWin() {
        RequestContext ctx = asked(new ObjectMapper().createObjectNode().put("db_id", "concert_singer")
                .put("question", "What are the names of the singers from France?"));
        String whole = new QuestionValues(schemas, 6).text(ctx);
        assertThat(whole).contains("singer.Country = 'France'");

        ctx.retrievedTables = List.of("stadium");
        assertThat(new QuestionValues(schemas, 6).text(ctx)).as("singer is not shown any more")
                .doesNotContain("singer.");
        assertThat(new QuestionValues(schemas, 2).text(ctx)).doesNotContain("singer.");
        assertThat(lookups.get()).isEqualTo(3);

        ctx.matchedValues.add("singer.Country = 'France'");
        assertThat(new QuestionValues(schemas, 6).text(ctx)).isEqualTo("singer.Country = 'France'");
        assertThat(lookups.get()).isEqualTo(3);
    }
}

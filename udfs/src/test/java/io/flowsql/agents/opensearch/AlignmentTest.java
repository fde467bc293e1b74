package io.flowsql.agents.opensearch;

import io.flowsql.pipeline.StageSql;
import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.AgentSettings;
import io.flowsql.agents.opensearch.align.AlignmentRules;
import io.flowsql.agents.opensearch.align.ConsistencyAligner;
import io.flowsql.agents.opensearch.align.MaxSubqueryToOrderBy;
import io.flowsql.agents.opensearch.align.NotNullOnOrderBy;
import io.flowsql.agents.opensearch.align.NullComparison;
import io.flowsql.agents.opensearch.align.ValueAlignment;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.sql.DatabaseSchema;
import org.junit.jupiter.api.Test;

/** Alignment rules on real Spider databases: each changes what it should and leaves correct SQL alone. */
class AlignmentTest {
    private final DatabaseSchema concert = SpiderAgentParts.CATALOG.schema("concert_singer");
    private final ValueAlignment values = new ValueAlignment(SpiderAgentParts.SQL);

    @Test
    void aNearMissLiteralBecomesTheValueThatExists() {
        assertThat(values.apply("SELECT Name FROM singer WHERE Country = 'france'", concert))
                .contains("SELECT Name FROM singer WHERE Country = 'France'");
        assertThat(values.apply("SELECT T1.Name FROM singer AS T1 WHERE T1.Country = \"Netherland\"", concert))
                .contains("SELECT T1.Name FROM singer AS T1 WHERE T1.Country = 'Netherlands'");
        String aligned = values.apply("SELECT count(*) FROM singer WHERE Country = 'france'", concert).orElseThrow();
        assertThat(SpiderAgentParts.EXECUTOR.execute("concert_singer", aligned).rows().get(0).get(0)).isEqualTo(4L);
    }

    @Test
    void aCorrectOrFarOffLiteralIsLeftAlone() {
        assertThat(values.apply("SELECT Name FROM singer WHERE Country = 'France'", concert)).isEmpty();
        assertThat(values.apply("SELECT Name FROM singer WHERE Country = 'Japan'", concert)).isEmpty();
        assertThat(values.apply("SELECT Name FROM singer WHERE Name LIKE '%jo%'", concert)).isEmpty();
    }

    @Test
    void maxSubqueryBecomesOrderByLimitOnlyWhenEquivalentInForm() {
        MaxSubqueryToOrderBy rule = new MaxSubqueryToOrderBy();
        assertThat(rule.apply("SELECT Name FROM singer WHERE Age = (SELECT MAX(Age) FROM singer)", concert))
                .contains("SELECT Name FROM singer ORDER BY Age DESC LIMIT 1");
        assertThat(rule.apply("SELECT Name FROM singer WHERE Age = (SELECT min(Age) FROM singer)", concert))
                .contains("SELECT Name FROM singer ORDER BY Age ASC LIMIT 1");
        assertThat(rule.apply("SELECT Name FROM singer WHERE Age = (SELECT MAX(Age) FROM singer WHERE Country = 'France')",
                concert)).isEmpty();
        assertThat(rule.apply("SELECT count(*) FROM singer WHERE Age = (SELECT MAX(Age) FROM singer)", concert)).isEmpty();
    }

    @Test
    void orderingByANullableColumnWithLimitExcludesNulls() {
        NotNullOnOrderBy rule = new NotNullOnOrderBy();
        assertThat(rule.apply("SELECT Name FROM singer ORDER BY Age LIMIT 1", concert))
                .contains("SELECT Name FROM singer WHERE Age IS NOT NULL ORDER BY Age LIMIT 1");
        assertThat(rule.apply("SELECT Name FROM singer WHERE Country = 'France' OR Age > 3 ORDER BY Age LIMIT 1", concert))
                .contains("SELECT Name FROM singer WHERE (Country = 'France' OR Age > 3) AND Age IS NOT NULL ORDER BY Age LIMIT 1");
        assertThat(rule.apply("SELECT Name FROM singer ORDER BY Age", concert)).isEmpty();
        assertThat(rule.apply("SELECT Name FROM singer ORDER BY Singer_ID LIMIT 1", concert)).isEmpty();
    }

    @Test
    void equalsNullBecomesIsNullOutsideQuotes() {
        NullComparison rule = new NullComparison();
        assertThat(rule.apply("SELECT Name FROM singer WHERE Age = NULL AND Country <> null AND Name = '= NULL'", concert))
                .contains("SELECT Name FROM singer WHERE Age IS NULL AND Country IS NOT NULL AND Name = '= NULL'");
        assertThat(rule.apply("SELECT Name FROM singer WHERE Age IS NULL", concert)).isEmpty();
    }

    @Test
    void switchesTurnRulesOffAndTheStageRecordsWhatChanged() {
        AgentSettings settings = new AgentSettings();
        settings.alignValues = false;
        ConsistencyAligner aligner = AlignmentRules.fromSettings(settings, SpiderAgentParts.SQL);
        assertThat(aligner.ruleNames()).doesNotContain("value").contains("max-subquery-to-order-by");
        assertThat(aligner.align("SELECT Name FROM singer WHERE Country = 'france'", concert).changed()).isFalse();

        ConsistencyAligner all = AlignmentRules.fromSettings(new AgentSettings(), SpiderAgentParts.SQL);
        RequestContext ctx = new RequestContext();
        ctx.dbId = "concert_singer";
        ctx.candidates.add(new Candidate("opensearch#0", "SELECT Name FROM singer WHERE Country = 'france'"));
        ctx.candidates.add(new Candidate("opensearch#1", "SELECT Name FROM singer WHERE Country = 'France'"));
        new OpenSearchAlignStage(all, SpiderAgentParts.ROOM).applyAs("opensearch.align", ctx).join();
        assertThat(ctx.candidates.get(0).sql).isEqualTo(ctx.candidates.get(1).sql);
        assertThat(ctx.notes).containsEntry("align.opensearch#0", "value").doesNotContainKey("align.opensearch#1");
    }
}

package io.flowsql.agents.common;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.render.SchemaRenderer;
import io.flowsql.sql.render.TokenCounter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The full rendering is made once per schema and is the renderer's own text; the views count no tokens. */
class SchemaViewsTest {
    private final TokenCounter tokens = new TokenCounter();
    private final SchemaRenderer renderer = new SchemaRenderer(tokens, SpiderAgentParts.EXECUTOR);
    private final SchemaViews views = new SchemaViews(renderer);

    @Test
    void fullRenderingIsTheRenderersAndIsMadeOncePerSchema() {
        DatabaseSchema concert = SpiderAgentParts.CATALOG.schema("concert_singer");
        DatabaseSchema pets = SpiderAgentParts.CATALOG.schema("pets_1");

        String first = views.full(concert);

        assertThat(first).isEqualTo(renderer.full(concert).text());
        assertThat(views.full(concert)).as("served from the cache, not rendered again").isSameAs(first);
        assertThat(views.full(pets)).isEqualTo(renderer.full(pets).text()).isNotEqualTo(first);
    }

    /** Prompts take the views' texts only: a pruned or soft rendering per question must not pass the tokenizer. */
    @Test
    void viewsRenderWithoutCountingTokens() {
        DatabaseSchema concert = SpiderAgentParts.CATALOG.schema("concert_singer");
        List<ColumnRef> linked = List.of(new ColumnRef("singer", "Country"), new ColumnRef("concert", "Year"));

        String pruned = views.pruned(concert, linked);
        String soft = views.soft(concert, linked);
        String full = views.full(concert);

        assertThat(tokens.textsCounted()).as("texts the tokenizer counted for the views").isZero();
        assertThat(pruned).contains("# Table: singer", "(Country, TEXT").doesNotContain("(Location, TEXT");
        assertThat(soft).contains("(Country, TEXT, examples: [").contains("(Location, TEXT)");
        assertThat(full).contains("(Location, TEXT, examples: [");
        assertThat(renderer.pruned(concert, linked).tokens()).as("counted when a budget asks")
                .isEqualTo(tokens.count(pruned)).isPositive();
    }
}

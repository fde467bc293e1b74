package io.flowsql.agents.common;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.render.SchemaRenderer;
import io.flowsql.sql.render.TokenCounter;
import org.junit.jupiter.api.Test;

/** The full rendering is made once per schema and is the renderer's own text. */
class SchemaViewsTest {
    private final SchemaRenderer renderer = new SchemaRenderer(new TokenCounter(), SpiderAgentParts.EXECUTOR);
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
}

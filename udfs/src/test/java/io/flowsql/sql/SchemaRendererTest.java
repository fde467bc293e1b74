package io.flowsql.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.sql.catalog.SqliteSchemaCatalog;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import io.flowsql.sql.render.RenderedSchema;
import io.flowsql.sql.render.SchemaRenderer;
import io.flowsql.sql.render.TokenCounter;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The four schema renderings of a real Spider database, with their token counts. */
class SchemaRendererTest {

    private static SqliteSafeExecutor executor;
    private static SchemaRenderer renderer;
    private static DatabaseSchema concert;

    @BeforeAll
    static void build() {
        executor = new SqliteSafeExecutor(SpiderData.locator(), SqlExecutorConfig.defaults());
        renderer = new SchemaRenderer(new TokenCounter(), executor);
        concert = new SqliteSchemaCatalog(SpiderData.locator()).schema("concert_singer");
    }

    @AfterAll
    static void close() {
        executor.close();
    }

    @Test
    void fullSchemaListsEveryTableColumnAndKey() {
        RenderedSchema full = renderer.full(concert);
        assertThat(full.text()).contains("# Table: singer_in_concert\n[")
                .contains("(Singer_ID, INT, primary key)").contains("(Country, TEXT, examples: [")
                .contains("concert.Stadium_ID = stadium.Stadium_ID");
        assertThat(full.text().lines().filter(l -> l.startsWith("# Table: "))).hasSize(4);
        assertThat(full.tokens()).isEqualTo(new TokenCounter().count(full.text())).isGreaterThan(100);
    }

    @Test
    void softSchemaDetailsOnlyTheLinkedColumns() {
        RenderedSchema soft = renderer.soft(concert, List.of(new ColumnRef("singer", "Country")));
        assertThat(soft.text()).contains("(Country, TEXT, examples: [").contains("(Location, TEXT)")
                .doesNotContain("(Location, TEXT, examples");
        assertThat(soft.text().lines().filter(l -> l.startsWith("# Table: "))).hasSize(4);
        assertThat(soft.tokens()).isGreaterThan(0).isLessThan(renderer.full(concert).tokens());
    }

    @Test
    void prunedSchemaKeepsLinkedColumnsAndTheJoinPath() {
        RenderedSchema pruned = renderer.pruned(concert,
                List.of(new ColumnRef("singer", "Name"), new ColumnRef("concert", "concert_Name")));
        assertThat(pruned.text().lines().filter(l -> l.startsWith("# Table: ")))
                .containsExactly("# Table: singer", "# Table: concert", "# Table: singer_in_concert");
        assertThat(pruned.text()).contains("singer_in_concert.Singer_ID = singer.Singer_ID").doesNotContain("stadium")
                .doesNotContain("(Age,");
        assertThat(pruned.tokens()).isGreaterThan(0).isLessThan(renderer.soft(concert, List.of()).tokens());
    }

    @Test
    void ddlWithSampleRows() {
        RenderedSchema ddl = renderer.ddlWithRows(concert, 3);
        assertThat(ddl.text()).contains("CREATE TABLE \"singer\" (").contains("PRIMARY KEY (\"Singer_ID\")")
                .contains("FOREIGN KEY (\"Stadium_ID\") REFERENCES \"stadium\" (\"Stadium_ID\")")
                .contains("SELECT * FROM \"singer\" LIMIT 3;").contains("Joe Sharp");
        assertThat(ddl.text().split("3 example rows", -1)).hasSize(5);
        assertThat(ddl.tokens()).isGreaterThan(renderer.ddlWithRows(concert, 0).tokens());
    }
}

package io.flowsql.agents.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModelOutputTest {

    @Test
    void takesTheLastSqlFenceAndDropsTheSemicolon() {
        String text = "First try:\n```sql\nSELECT 1\n```\nBetter:\n```sql\nSELECT name FROM singer;\n```\n";
        assertThat(ModelOutput.sql(text)).contains("SELECT name FROM singer");
    }

    @Test
    void readsATaggedSqlSectionButNotTheSqlLikeSketch() {
        String text = "#reason: r\n#SQL-like: SELECT sketch\n#SQL: SELECT Name FROM singer\nWHERE Age > 3\n#note: done";
        assertThat(ModelOutput.sql(text)).contains("SELECT Name FROM singer\nWHERE Age > 3");
        assertThat(ModelOutput.sql("SQL: WITH t AS (SELECT 1) SELECT * FROM t")).contains("WITH t AS (SELECT 1) SELECT * FROM t");
    }

    @Test
    void neverTakesProseAsSql() {
        assertThat(ModelOutput.sql("I think you should select the names of singers.")).isEmpty();
        assertThat(ModelOutput.sql("#SQL: I cannot answer that")).isEmpty();
        assertThat(ModelOutput.sql("SELECT name FROM singer")).isEmpty();
        assertThat(ModelOutput.sql("```sql\nDROP TABLE singer\n```")).isEmpty();
    }

    @Test
    void findsJsonInFencesOrAsTheFirstBalancedBlock() {
        assertThat(ModelOutput.json("```json\n{\"a\": [1, 2]}\n```").get().path("a").size()).isEqualTo(2);
        assertThat(ModelOutput.json("Here: {\"x\": \"}{\", \"y\": {\"z\": 1}} trailing").get().path("y").path("z").asInt())
                .isEqualTo(1);
        assertThat(ModelOutput.json("Sure [not json] then [\"a\",\"b\"]").get().size()).isEqualTo(2);
        assertThat(ModelOutput.json("no json {here")).isEmpty();
    }

    @Test
    void splitsTaggedSectionsLongestTagFirst() {
        Map<String, String> sections = ModelOutput.tagged(
                "#reason: because\nit is\n#SQL-like: SELECT a\n#SQL: SELECT b", List.of("reason", "SQL", "SQL-like"));
        assertThat(sections).containsEntry("reason", "because\nit is")
                .containsEntry("SQL-like", "SELECT a").containsEntry("SQL", "SELECT b");
    }
}

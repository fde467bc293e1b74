package io.flowsql.agents.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Prompt fields are values: a stage's additions never leak into the fields another call derives from the same start. */
class PromptFieldsTest {
    private final PromptTemplate template = PromptTemplate.of("t", "Database: {{db_id}}\nQuestion: {{question}}\nSQL: {{sql}}");

    @Test
    void withAndAskingLeaveTheSharedFieldsAsTheyWere() {
        PromptFields shared = PromptFields.shared("concert_singer", "How many\n  singers?", " ", "(no earlier turns)", "CREATE TABLE singer(id)");
        PromptFields review = shared.with("sql", "SELECT count(*) FROM singer");
        PromptFields reading = shared.asking("How many singers\nare French?").with("sql", 3);

        assertThat(shared.question()).isEqualTo("How many singers?");
        assertThat(shared.get("evidence")).isEqualTo(SchemaContext.NO_EVIDENCE);
        assertThat(shared.get("sql")).isNull();
        assertThat(template.render(review)).isEqualTo("Database: concert_singer\nQuestion: How many singers?\nSQL: SELECT count(*) FROM singer");
        assertThat(template.render(reading)).isEqualTo("Database: concert_singer\nQuestion: How many singers are French?\nSQL: 3");
        assertThat(review.asMap()).containsKeys("db_id", "question", "evidence", "history", "schema", "sql");
        assertThatThrownBy(() -> review.asMap().put("sql", "DROP TABLE singer")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aFieldSetToNullIsMissingAndRenderingNamesIt() {
        PromptFields fields = PromptFields.none().with("db_id", "x").with("question", "q").with("sql", null);
        assertThatThrownBy(() -> template.render(fields)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[sql]");
        assertThat(fields).isEqualTo(PromptFields.none().with("question", "q").with("db_id", "x").with("sql", null));
    }
}

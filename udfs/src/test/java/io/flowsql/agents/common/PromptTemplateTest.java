package io.flowsql.agents.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Placeholders replaced by their values' text as it is, wherever they stand; a missing value named, never sent. */
class PromptTemplateTest {
    @Test
    void everyPlaceholderGetsItsValueAsItIs() {
        PromptTemplate template = PromptTemplate.of("t", "{{question}} -- {{ schema }}{{question}}\\n$1 {{db_id}}");
        String rendered = template.render(PromptFields.none().with("question", "Which $1 costs \\\\ 5?")
                .with("schema", "CREATE TABLE t (a)").with("db_id", "shop"));
        assertThat(rendered).isEqualTo("Which $1 costs \\\\ 5? -- CREATE TABLE t (a)Which $1 costs \\\\ 5?\\n$1 shop");
        assertThat(template.placeholders()).containsExactly("question", "schema", "db_id");
    }

    @Test
    void aTextWithoutPlaceholdersOrWithBracesThatAreNoneStaysAsItIs() {
        assertThat(PromptTemplate.of("t", "").render(PromptFields.none())).isEmpty();
        assertThat(PromptTemplate.of("t", "{\"a\": {{x}}}, {{ 1y }}, {{}}").render(PromptFields.none().with("x", "{}")))
                .isEqualTo("{\"a\": {}}, {{ 1y }}, {{}}");
    }

    @Test
    void missingValuesAreAllNamed() {
        assertThatThrownBy(() -> PromptTemplate.of("prompts/x.txt", "{{b}} {{a}} {{c}}").render(PromptFields.none().with("c", "3")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("prompt prompts/x.txt has no value for [a, b]");
    }
}

package io.flowsql.simulator.agents;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The simulator's rule-made SQL for questions the oracle does not know, on a schema in the renderer's format. */
class PromptTextTest {
    private static final String SCHEMA = """
            # Table: stadium
            [
              (Stadium_ID, INT, primary key),
              (Location, TEXT, examples: ['Raith Rovers', 'Ayr United']),
            ]
            # Table: singer
            [
              (Singer_ID, INT, primary key),
              (Name, TEXT, examples: ['Joe Sharp', 'Timbaland']),
              (Country, TEXT, "country of origin", examples: ['United States', 'France', 'Netherlands'], nullable),
            ]
            # Foreign keys:
            """;

    @Test
    void aQuotedValueExampleBecomesAFilterOnItsColumn() {
        assertThat(PromptText.plausibleSql("Which singers are from France?", SCHEMA))
                .isEqualTo("SELECT * FROM singer WHERE Country = 'France'");
        assertThat(PromptText.plausibleSql("How many singers come from the United States?", SCHEMA))
                .isEqualTo("SELECT count(*) FROM singer WHERE Country = 'United States'");
    }

    @Test
    void withoutAValueItCountsOrListsTheNamedTable() {
        assertThat(PromptText.plausibleSql("How many singers are there?", SCHEMA)).isEqualTo("SELECT count(*) FROM singer");
        assertThat(PromptText.plausibleSql("Show all singers.", SCHEMA)).isEqualTo("SELECT * FROM singer");
        assertThat(PromptText.plausibleSql("List every stadium.", SCHEMA)).isEqualTo("SELECT * FROM stadium");
    }

    @Test
    void schemaQualifiedTableNamesAreReadWhole() {
        String warehouse = """
                # Table: concert_singer.singer
                [
                  (Singer_ID, INT, primary key),
                ]
                # Table: pets_1.Pets [PetID (primary key), PetType]
                """;
        assertThat(PromptText.tables(warehouse)).containsExactly("concert_singer.singer", "pets_1.Pets");
        assertThat(PromptText.tables(SCHEMA)).containsExactly("stadium", "singer");
    }
}

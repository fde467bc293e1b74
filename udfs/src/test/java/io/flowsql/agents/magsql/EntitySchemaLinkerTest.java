package io.flowsql.agents.magsql;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.TableSchema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The linker's "table.column" names, also where the table is schema-qualified (a warehouse: "ns.table.column"). */
class EntitySchemaLinkerTest {
    private static TableSchema table(String name, String... columns) {
        return new TableSchema(name, "", java.util.Arrays.stream(columns)
                .map(c -> new ColumnSchema(name, c, "TEXT", "", false, false, List.of())).toList(), List.of());
    }

    @Test
    void aSchemaQualifiedTableIsResolvedWholeAndItsColumnAfterTheLastDot() {
        DatabaseSchema warehouse = new DatabaseSchema("warehouse", List.of(table("concert_singer.singer", "Name", "Age"),
                table("pets_1.Pets", "PetID")), List.of());
        assertThat(EntitySchemaLinker.resolve("concert_singer.singer.name", warehouse))
                .hasValueSatisfying(c -> assertThat(c.toString()).contains("concert_singer.singer").contains("Name"));
        assertThat(EntitySchemaLinker.resolve("\"pets_1.Pets\".PetID", warehouse)).isPresent();
        assertThat(EntitySchemaLinker.resolve("concert_singer.Name", warehouse)).as("a schema is not a table").isEmpty();

        DatabaseSchema plain = new DatabaseSchema("concert_singer", List.of(table("singer", "Name")), List.of());
        assertThat(EntitySchemaLinker.resolve("`singer`.`Name`", plain)).isPresent();
    }
}

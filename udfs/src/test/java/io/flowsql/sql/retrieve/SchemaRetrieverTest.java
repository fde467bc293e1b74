package io.flowsql.sql.retrieve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ForeignKey;
import io.flowsql.sql.SpiderData;
import io.flowsql.sql.TableSchema;
import io.flowsql.sql.catalog.SqliteSchemaCatalog;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SchemaRetrieverTest {

    @Test
    void everySpiderDevDatabaseIsRetrievedWholeAtTheDefaultBudget() throws IOException {
        SqliteSchemaCatalog catalog = new SqliteSchemaCatalog(SpiderData.locator());
        SchemaRetriever retriever = SchemaRetriever.lexical(SchemaRetriever.DEFAULT_TOKEN_BUDGET);
        Set<String> devDatabases = new LinkedHashSet<>();
        for (JsonNode q : new ObjectMapper().readTree(SpiderData.sharedData().resolve("spider/dev.json").toFile())) {
            devDatabases.add(q.get("db_id").asText());
        }
        int checked = 0;
        int largest = 0;
        for (String db : devDatabases) {
            if (!catalog.contains(db)) {
                continue;  // wta_1 has no SQLite file here
            }
            DatabaseSchema whole = catalog.schema(db);
            RetrievedSchema got = retriever.retrieve(whole, RetrievalQuery.of("How many singers are there?", null, List.of()));
            assertSame(whole, got.schema(), db);
            assertFalse(got.cut(), db);
            largest = Math.max(largest, got.wholeTokens());
            checked++;
        }
        assertEquals(19, checked);
        assertTrue(largest < SchemaRetriever.DEFAULT_TOKEN_BUDGET, "largest dev schema " + largest);
    }

    @Test
    void overTheBudgetTheMatchingTablesAndTheirForeignKeyNeighboursAreKept() {
        List<TableSchema> tables = new ArrayList<>();
        List<ForeignKey> keys = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            tables.add(table("filler" + (char) ('a' + i % 26) + i, "code", "label", "amount"));
        }
        tables.add(table("concert_singer.singer", "Singer_ID", "Name", "Country", "Age"));
        tables.add(table("concert_singer.singer_in_concert", "concert_ID", "Singer_ID"));
        tables.add(table("concert_singer.concert", "concert_ID", "concert_Name", "Year"));
        tables.add(table("pets.Pets", "PetID", "PetType", "pet_age"));
        keys.add(new ForeignKey(new ColumnRef("concert_singer.singer_in_concert", "Singer_ID"),
                new ColumnRef("concert_singer.singer", "Singer_ID")));
        keys.add(new ForeignKey(new ColumnRef("concert_singer.singer_in_concert", "concert_ID"),
                new ColumnRef("concert_singer.concert", "concert_ID")));
        DatabaseSchema schema = new DatabaseSchema("warehouse", tables, keys);

        SchemaRetriever retriever = SchemaRetriever.lexical(250);
        RetrievedSchema got = retriever.retrieve(schema,
                RetrievalQuery.of("Show the names of singers and the concerts they sang in", null, List.of()));
        assertTrue(got.cut());
        assertTrue(got.tokens() <= 250, "tokens " + got.tokens());
        assertTrue(got.wholeTokens() > 250);
        List<String> kept = got.tableNames();
        assertTrue(kept.containsAll(List.of("concert_singer.singer", "concert_singer.singer_in_concert",
                "concert_singer.concert")), kept.toString());
        assertFalse(kept.contains("pets.Pets"), kept.toString());
        assertEquals(2, got.schema().foreignKeys().size());
        assertTrue(got.describe(250).contains("concert_singer.singer"));
    }

    @Test
    void wordsSplitNamesAndStemPlurals() {
        assertEquals(Set.of("stu", "id"), Words.ofName("StuID"));
        assertEquals(Set.of("country", "name"), Words.ofName("country_names"));
        assertEquals(Set.of("pet", "type"), Words.ofName("PetType"));
        assertEquals(Set.of("singer", "country"), Words.ofText("How many singers are from each country?"));
        assertTrue(Words.withCompounds("Show the names of all high schoolers in grade 10.").contains("highschooler"));
    }

    private static TableSchema table(String name, String... columns) {
        List<ColumnSchema> cols = new ArrayList<>();
        for (String c : columns) {
            cols.add(new ColumnSchema(name, c, "TEXT", "", true, false, List.of()));
        }
        return new TableSchema(name, "", cols, List.of(columns[0]));
    }
}

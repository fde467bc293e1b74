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
import io.flowsql.sql.render.SchemaRenderer;
import io.flowsql.sql.render.TokenCounter;
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
    void theNamespaceWhoseRareWordsTheQuestionUsesComesFirstAndOthersMatchedTablesBeforeItsUnmatchedOnes() {
        List<TableSchema> tables = new ArrayList<>();
        // "documents" is in every namespace; "template" only in one, so it tells which database is meant
        for (String ns : List.of("archive", "billing", "records_mgmt", "legal", "hr")) {
            tables.add(table(ns + ".Documents", "Document_ID", "Document_Name", "Document_Description"));
            tables.add(table(ns + ".Staff", "Staff_ID", "first_name", "last_name", "email", "phone", "office"));
            tables.add(table(ns + ".Budget", "Budget_ID", "amount", "fiscal_year", "department", "owner", "approved"));
        }
        tables.add(table("records_mgmt.Templates", "Template_ID", "Template_Type_Code", "Version_Number"));
        DatabaseSchema schema = new DatabaseSchema("warehouse", tables, List.of());
        SchemaRetriever retriever = SchemaRetriever.lexical(120);

        RetrievedSchema got = retriever.retrieve(schema,
                RetrievalQuery.of("Which documents use a template with version number 2?", null, List.of()));
        List<String> kept = got.tableNames();
        assertTrue(kept.contains("records_mgmt.Templates") && kept.contains("records_mgmt.Documents"), kept.toString());
        // the other namespaces' Documents (matched) come before any unmatched table of the best namespace
        for (String ns : List.of("archive", "billing", "legal", "hr")) {
            assertTrue(kept.contains(ns + ".Documents"), kept.toString());
        }
        assertTrue(got.briefTables().contains("hr.Documents"), got.briefTables().toString());
        assertTrue(got.tokens() <= 120, "tokens " + got.tokens());
        assertFalse(kept.contains("hr.Budget"), kept.toString());
    }

    @Test
    void briefTablesRenderOnOneLineAndTheCatalogsOwnTableStillInFull() {
        TableSchema pets = table("pets_1.Pets", "PetID", "PetType", "pet_age");
        TableSchema brief = SchemaSubset.brief(pets);
        SchemaRenderer renderer = new SchemaRenderer(new TokenCounter(), null);
        String briefText = renderer.full(new DatabaseSchema("w", List.of(brief), List.of())).text();
        assertEquals("# Table: pets_1.Pets [PetID, PetType, pet_age]\n", briefText);
        String fullText = renderer.full(new DatabaseSchema("w", List.of(pets), List.of())).text();
        assertTrue(fullText.contains("(PetType, TEXT, nullable)"), fullText);
        assertFalse(io.flowsql.sql.BriefTables.isBrief(pets));
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

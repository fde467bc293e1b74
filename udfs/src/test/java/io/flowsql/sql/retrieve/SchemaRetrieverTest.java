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
import java.util.Map;
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
    void theNamespaceWhoseRareWordsTheQuestionUsesComesFirstAndOnlyTheBestFewNamespacesAreOffered() {
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
        assertEquals("records_mgmt", got.schemas().get(0));
        assertEquals(Math.min(NamespaceOrder.ROUTED, 5), got.schemas().size());
        assertTrue(kept.contains("records_mgmt.Templates") && kept.contains("records_mgmt.Documents"), kept.toString());
        // the matched Documents of the next routed namespaces come before unmatched tables; the others' never
        for (String ns : got.schemas().subList(1, got.schemas().size())) {
            assertTrue(kept.contains(ns + ".Documents"), kept.toString());
        }
        long fromOutside = kept.stream().filter(t -> !got.schemas().contains(SchemaRetriever.namespace(t))).count();
        assertEquals(0, fromOutside, kept.toString());
        assertTrue(got.tokens() <= 120, "tokens " + got.tokens());
        assertTrue(got.describe(120).contains("schemas records_mgmt"), got.describe(120));
    }

    @Test
    void theNamedTablesOfTheOtherRoutedNamespacesComeBeforeTheirTablesThatOnlyHangOffAMatch() {
        // routed a, b, c; a1 b1 c1 matched by their own words, b3 joins two matches, a2 and b2 only hang off one
        String[] namespace = {"a", "a", "b", "b", "b", "c", "c", "a"};
        double[] score = {2, 0.8, 1.5, 0.6, 0.6, 1, 0, 0};
        boolean[] named = {true, false, true, false, true, true, false, false};
        NamespaceOrder.Routing routing = NamespaceOrder.of(namespace, score, score.clone(), named,
                Map.of("a", 3.0, "b", 2.0, "c", 1.0), Map.of(), Set.of());
        assertEquals(List.of("a", "b", "c"), routing.namespaces());
        // the best namespace's matches with their neighbours (a1, a2); the others' named tables (b1, b3, c1); then b2;
        // then the unmatched tables (a9, c9). Formerly b2 came before c1: the third schema's match lost to a neighbour.
        assertEquals(List.of(0, 1, 2, 4, 5, 3, 7, 6), routing.order());
    }

    @Test
    void aTableIsNamedWhenItsOwnWordsMatchOrItJoinsTwoTablesWhoseWordsDo() {
        // (the join tables' columns do not repeat the words, so only the foreign keys tell what they join)
        List<TableSchema> tables = List.of(table("uni.student", "student_id", "first_name"),
                table("uni.course", "course_id", "title"), table("uni.enrolment", "enrolment_id", "learner", "class"),
                table("uni.dorm", "dorm_id", "resident", "capacity"));
        List<ForeignKey> keys = List.of(
                new ForeignKey(new ColumnRef("uni.enrolment", "learner"), new ColumnRef("uni.student", "student_id")),
                new ForeignKey(new ColumnRef("uni.enrolment", "class"), new ColumnRef("uni.course", "course_id")),
                new ForeignKey(new ColumnRef("uni.dorm", "resident"), new ColumnRef("uni.student", "student_id")));
        DatabaseSchema schema = new DatabaseSchema("warehouse", tables, keys);
        SchemaRetriever retriever = SchemaRetriever.lexical(100);
        Relevance relevance = new LexicalScorer().score(schema, RetrievalQuery.of("Which students take a course?", null, List.of()));
        boolean[] named = SchemaRetriever.named(schema, retriever.measure(schema), relevance);
        assertTrue(named[0] && named[1], "student and course match by their words");
        assertTrue(named[2], "enrolment joins student and course");
        assertFalse(named[3], "dorm only hangs off student");
    }

    @Test
    void aQuestionAboutATableNameFortyNamespacesShareTakesTablesFromAtMostTheRoutedFew() {
        List<TableSchema> tables = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String ns = "db" + (char) ('a' + i % 26) + (char) ('a' + i / 26);
            tables.add(table(ns + ".documents", "document_id", "title", "created"));
            tables.add(table(ns + ".ledger", "entry_id", "amount", "booked"));
        }
        SchemaRetriever retriever = SchemaRetriever.lexical(2_000);
        RetrievedSchema got = retriever.retrieve(new DatabaseSchema("warehouse", tables, List.of()),
                RetrievalQuery.of("List the titles of all documents", null, List.of()));
        Set<String> namespaces = new LinkedHashSet<>();
        got.tableNames().forEach(t -> namespaces.add(SchemaRetriever.namespace(t)));
        assertTrue(got.cut());
        assertEquals(NamespaceOrder.ROUTED, namespaces.size(), got.tableNames().toString());
        // equal scores keep the catalog's order: the collision rule is stated and deterministic
        assertEquals(List.of("dbaa", "dbba", "dbca"), got.schemas().subList(0, 3));
    }

    @Test
    void collidingTableNamesGoToTheNamespaceTheQuestionsOtherWordsOrTheDialogueName() {
        List<TableSchema> tables = new ArrayList<>();
        // the same formula_1 tables twice: once beside a "circuits" table with lap records, once alone
        for (String ns : List.of("formula_1", "f1_archive")) {
            tables.add(table(ns + ".races", "raceId", "year", "round", "circuitId", "name"));
            tables.add(table(ns + ".drivers", "driverId", "forename", "surname", "nationality"));
            tables.add(table(ns + ".results", "resultId", "raceId", "driverId", "points", "position"));
        }
        tables.add(table("f1_archive.lap_records", "circuitId", "lap_time", "record_holder"));
        for (int i = 0; i < 10; i++) {
            tables.add(table("shop" + i + ".orders", "order_id", "customer", "amount", "placed"));
        }
        DatabaseSchema schema = new DatabaseSchema("warehouse", tables, List.of());
        SchemaRetriever retriever = SchemaRetriever.lexical(200);

        RetrievedSchema byWords = retriever.retrieve(schema,
                RetrievalQuery.of("Which driver holds the lap record of the race in 2009?", null, List.of()));
        assertEquals("f1_archive", byWords.schemas().get(0));
        assertTrue(byWords.tableNames().contains("f1_archive.drivers"), byWords.tableNames().toString());
        assertFalse(byWords.tableNames().contains("formula_1.drivers") && !byWords.tableNames().contains("f1_archive.races"),
                byWords.tableNames().toString());

        RetrievalQuery followUp = RetrievalQuery.of("And how many points did the drivers of that race get?", null, List.of());
        assertEquals("formula_1", retriever.retrieve(schema, followUp).schemas().get(0), "without the dialogue");
        Set<String> previous = SchemaRetriever.namespacesIn("SELECT T1.surname FROM f1_archive.drivers AS T1 JOIN "
                + "\"f1_archive\".lap_records AS T2 ON T1.driverId = T2.record_holder WHERE T1.driverId = 3", schema);
        assertEquals(Set.of("f1_archive"), previous);
        RetrievedSchema routed = retriever.retrieve(schema, followUp.afterTurnIn(previous));
        assertEquals("f1_archive", routed.schemas().get(0));
        assertTrue(routed.tableNames().containsAll(List.of("f1_archive.drivers", "f1_archive.results")), routed.tableNames().toString());
    }

    @Test
    void aValueTheQuestionNamesRoutesToItsSchemaWhenTheWordsPointElsewhere() {
        List<TableSchema> tables = new ArrayList<>();
        tables.add(table("music_1.song", "song_name", "languages", "popularity", "genre_is"));
        tables.add(table("music_1.artist", "artist_name", "country", "languages"));
        tables.add(table("world_1.country", "Code", "Name", "Continent", "Region"));
        tables.add(table("world_1.countrylanguage", "CountryCode", "Language", "IsOfficial"));
        tables.add(table("e_learning.Subjects", "subject_id", "subject_name"));
        for (int i = 0; i < 8; i++) {
            tables.add(table("shop" + i + ".orders", "order_id", "customer", "amount", "placed"));
        }
        DatabaseSchema schema = new DatabaseSchema("warehouse", tables, List.of());
        SchemaRetriever retriever = SchemaRetriever.lexical(60);
        String question = "Which language is the most popular in Aruba?";
        assertEquals("music_1", retriever.retrieve(schema, RetrievalQuery.of(question, null, List.of())).schemas().get(0),
                "by its words alone the question is about songs");

        // as the trigram index returns them: a value found inside a word, a plain word that is also a value, the name
        List<io.flowsql.sql.ValueMatch> hits = List.of(
                new io.flowsql.sql.ValueMatch("music_1.song", "genre_is", "pop", 1.0),
                new io.flowsql.sql.ValueMatch("e_learning.Subjects", "subject_name", "Language", 1.0),
                new io.flowsql.sql.ValueMatch("world_1.country", "Name", "Aruba", 1.0));
        RetrievedSchema got = retriever.retrieve(schema, RetrievalQuery.of(question, null, hits));
        assertEquals("world_1", got.schemas().get(0), got.schemas().toString());
        assertTrue(got.tableNames().contains("world_1.countrylanguage"), got.tableNames().toString());

        assertEquals(Map.of("world_1", 1.0), NamespaceValues.of(question, hits));
        assertEquals(Map.of("a", 0.5, "b", 0.5), NamespaceValues.of("Which region is Kabul in?", List.of(
                new io.flowsql.sql.ValueMatch("a.city", "name", "Kabul", 1.0),
                new io.flowsql.sql.ValueMatch("b.airport", "city", "Kabul", 1.0))), "a value in two schemas names neither surely");
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
        assertFalse(Words.withCompounds("How much does the youngest dog weigh?").contains("theyoungest"));
    }

    @Test
    void aQuestionWordTheSchemaNamesOtherwiseStillRoutesToIt() {
        List<TableSchema> tables = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            tables.add(table("atlas.place" + (char) ('a' + i), "code", "label", "area", "height"));
        }
        tables.add(table("world.country", "Code", "Name", "Continent", "Population"));
        tables.add(table("world.countrylanguage", "CountryCode", "Language", "IsOfficial"));
        DatabaseSchema schema = new DatabaseSchema("warehouse", tables, List.of(new ForeignKey(
                new ColumnRef("world.countrylanguage", "CountryCode"), new ColumnRef("world.country", "Code"))));

        RetrievedSchema got = SchemaRetriever.lexical(120).retrieve(schema,
                RetrievalQuery.of("Which nations speak French?", null, List.of()));
        assertTrue(got.cut());
        assertEquals("world", got.schemas().get(0), got.schemas().toString());  // "nations" → country, "speak" → language
        assertTrue(got.tableNames().containsAll(List.of("world.country", "world.countrylanguage")), got.tableNames().toString());
        assertTrue(RetrievalQuery.of("the nations", null, List.of()).words().contains("country"));
    }

    private static TableSchema table(String name, String... columns) {
        List<ColumnSchema> cols = new ArrayList<>();
        for (String c : columns) {
            cols.add(new ColumnSchema(name, c, "TEXT", "", true, false, List.of()));
        }
        return new TableSchema(name, "", cols, List.of(columns[0]));
    }
}

package io.flowsql.simulator.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class GoldSqlOracleTest {
    private static final Path DATA = Path.of(System.getProperty("flowsql.shared.data", "../../shared/data"));

    private static Path dataFile(String relative) {
        Path file = DATA.resolve(relative);
        assertThat(file).as("benchmark data (flowsql.shared.data)").exists();
        return file;
    }

    @Test
    void findsSpiderGoldIgnoringCaseAndSpacing() {
        GoldSqlOracle oracle = GoldSqlOracle.load(dataFile("spider/dev.json"));
        assertThat(oracle.size()).isGreaterThan(1000);
        assertThat(oracle.goldSql("concert_singer", "  how MANY singers   do we have? "))
                .hasValueSatisfying(sql -> assertThat(sql).containsIgnoringCase("count(*)").containsIgnoringCase("singer"));
        assertThat(oracle.goldSql("concert_singer", "How many dragons do we have?")).isEmpty();
        assertThat(oracle.goldSql("pets_1", "How many singers do we have?")).isEmpty();
    }

    @Test
    void aGatedQuestionGetsItsGoldOnlyThroughAPromptCarryingTheEvidence(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("set.json");
        Files.writeString(file, "[{\"db_id\": \"concert_singer\", \"question\": \"How many veteran singers are there?\", "
                + "\"query\": \"SELECT count(*) FROM singer WHERE Age > 40\", \"needs_evidence\": \"singer.Age > 40\", "
                + "\"query_without_evidence\": \"SELECT count(*) FROM singer\"}, "
                + "{\"db_id\": \"pets_1\", \"question\": \"How many pets?\", \"query\": \"SELECT count(*) FROM Pets\"}]");
        GoldSqlOracle oracle = GoldSqlOracle.load(file);
        String q = "How many veteran singers are there?";
        assertThat(oracle.gated()).isTrue();
        assertThat(oracle.goldSql("concert_singer", q)).as("no prompt: the gold").contains("SELECT count(*) FROM singer WHERE Age > 40");
        assertThat(oracle.seenThrough("Question: " + q).goldSql("concert_singer", q)).contains("SELECT count(*) FROM singer");
        assertThat(oracle.seenThrough("Evidence: \"veteran singer\" means: older than 40 (SINGER.age > 40)\nQuestion: " + q)
                .goldSql("concert_singer", q)).contains("SELECT count(*) FROM singer WHERE Age > 40");
        assertThat(oracle.seenThrough("Question: How many pets?").goldSql("pets_1", "How many pets?"))
                .as("an ungated question").contains("SELECT count(*) FROM Pets");
        assertThat(GoldSqlOracle.load(dataFile("spider/dev.json")).gated()).isFalse();
    }

    @Test
    void readsBirdAndCosqlLayouts() throws Exception {
        GoldSqlOracle oracle = GoldSqlOracle.load(dataFile("bird-minidev/mini_dev_sqlite.json"),
                dataFile("cosql/cosql_dev.json"));
        String bird = Files.readString(dataFile("bird-minidev/mini_dev_sqlite.json"));
        assertThat(bird).contains("\"SQL\"");
        assertThat(oracle.size()).isGreaterThan(1000);
        com.fasterxml.jackson.databind.JsonNode first = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(bird).get(0);
        assertThat(oracle.goldSql(first.path("db_id").asText(), first.path("question").asText().toUpperCase()))
                .contains(first.path("SQL").asText().strip());
        com.fasterxml.jackson.databind.JsonNode dialogue = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(dataFile("cosql/cosql_dev.json").toFile()).get(0);
        com.fasterxml.jackson.databind.JsonNode turns = dialogue.path("turns");
        for (int i = 0; i + 1 < turns.size(); i++) {
            String query = turns.get(i + 1).path("query").asText("");
            if (turns.get(i).path("isUser").asBoolean() && !query.isBlank()) {
                assertThat(oracle.goldSql(dialogue.path("db_name").asText(), turns.get(i).path("text").asText()))
                        .contains(query.strip());
                return;
            }
        }
        throw new AssertionError("first CoSQL dialogue has no answered turn");
    }

    @Test
    void knowsTheTypeCosqlGivesATurnAndNoTypeForUntypedFiles() throws Exception {
        GoldSqlOracle oracle = GoldSqlOracle.load(dataFile("spider/dev.json"), dataFile("cosql/cosql_dev.json"));
        com.fasterxml.jackson.databind.JsonNode dialogue = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(dataFile("cosql/cosql_dev.json").toFile()).get(0);
        com.fasterxml.jackson.databind.JsonNode opening = dialogue.path("turns").get(0);
        String db = dialogue.path("db_name").asText();
        assertThat(oracle.questionType(db, "  " + opening.path("text").asText().toUpperCase() + " "))
                .contains(opening.path("type").asText());
        assertThat(oracle.questionType(db, "Thanks!")).contains("improper");
        assertThat(oracle.questionType("concert_singer", "How many singers do we have?")).isEmpty();
        assertThat(oracle.goldSql("concert_singer", "How many singers do we have?")).isPresent();
        assertThat(oracle.questionType(null, "Thanks!")).isEmpty();
    }
}

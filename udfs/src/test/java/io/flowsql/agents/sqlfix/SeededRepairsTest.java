package io.flowsql.agents.sqlfix;

import io.flowsql.access.DataDoors;
import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.StageSql;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.SpiderData;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded repairs (built beforehand from verified pairs) reach the refiner's prompt, never from the question's own
 * database when the seeds hold that database's gold SQL, and are never written into the learning memory's file.
 */
class SeededRepairsTest {
    private static final String QUESTION = "How many singers are older than 40?";
    private static final RepairRecord OWN = new RepairRecord("concert_singer", "How many singers are older than 30?",
            "SELECT count(*) FROM singer WHERE age < 30", "SELECT count(*) FROM singer WHERE age > 30",
            RepairSeedsWording.DIFFERENT, "DAIL-SQL+GPT-4.txt#3");
    private static final RepairRecord OTHER = new RepairRecord("pets_1", "How many dogs are older than 3?",
            "SELECT count(*) FROM pets WHERE pet_age < 3", "SELECT count(*) FROM pets WHERE pet_age > 3 AND pettype = 'dog'",
            RepairSeedsWording.DIFFERENT, "C3-ChatGPT.txt#57");

    /** The wording the seed builder (benchmarks) uses; restated here, the udfs tests cannot see that module. */
    private static final class RepairSeedsWording {
        static final String DIFFERENT = "its result differs from the gold SQL's";
    }

    @Test
    void theRefinerIsShownSeedsOfOtherDatabasesOnly(@TempDir Path dir) throws Exception {
        Path seeds = dir.resolve("seeds.jsonl");
        Path learned = dir.resolve("learned.jsonl");
        RepairMemoryFiles.write(seeds, OWN, OTHER);
        RepairMemory memory = RepairMemory.open(learned).seededWith(seeds).seededWith(seeds);
        assertThat(memory.size()).isEqualTo(2);
        String flagged = "SELECT count(*) FROM singer WHERE age < 40";
        assertThat(memory.similar(null, QUESTION, flagged, 3, List.of())).first().isEqualTo(OWN);
        assertThat(memory.similar("concert_singer", QUESTION, flagged, 3, List.of())).containsExactly(OTHER);

        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds(
                "#choice: repair\n#wrong: reversed\n```sql\nSELECT count(*) FROM singer WHERE age > 40\n```");
        try (SqliteSafeExecutor executor = new SqliteSafeExecutor(SpiderData.locator(), SqlExecutorConfig.defaults())) {
            new SqlRefiner(new AgentCall(llm), new StageSql(DataDoors.open(executor, null).holding(memory)), 3, true)
                    .refine(SpiderFrames.frame("concert_singer", QUESTION, "(no earlier turns)"), null, flagged,
                            List.of("reversed"), List.of(), FailureMemory.empty(), new StageTrace("t")).join();
        }
        String prompt = llm.requests().get(0).messages().get(1).content();
        assertThat(prompt).contains("question: " + OTHER.question(), "fixed: " + OTHER.fixedSql())
                .doesNotContain(OWN.question(), OWN.fixedSql());
        // the refiner's own repair is learned into its file; the seeds stay in theirs
        assertThat(Files.readAllLines(learned)).singleElement().asString().doesNotContain("seededFrom");
        assertThat(Files.readAllLines(seeds)).hasSize(2);
    }

    @Test
    void aSeedRoundTripsWithItsSourceAndAnOldLineReadsAsLearned(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("seeds.jsonl");
        RepairMemoryFiles.write(file, OTHER);
        Files.writeString(file, "{\"dbId\":\"db\",\"question\":\"q\",\"wrongSql\":\"SELECT 1\",\"fixedSql\":\"SELECT 2\","
                + "\"whatWasWrong\":\"x\"}\n", java.nio.file.StandardOpenOption.APPEND);
        RepairMemory memory = RepairMemory.frozen(null).seededWith(file);
        assertThat(memory.similar(null, OTHER.question(), OTHER.wrongSql(), 1, List.of())).containsExactly(OTHER);
        assertThat(memory.similar(null, "q", "SELECT 1", 1, List.of())).singleElement()
                .satisfies(r -> assertThat(r.seeded()).isFalse());
    }

    /** Writes repairs as the seed builder does (one JSON object a line). */
    private static final class RepairMemoryFiles {
        static void write(Path file, RepairRecord... records) throws Exception {
            com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
            StringBuilder out = new StringBuilder();
            for (RepairRecord r : records) {
                out.append(json.writeValueAsString(r)).append('\n');
            }
            Files.writeString(file, out);
        }
    }
}

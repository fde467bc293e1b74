package io.flowsql.benchmarks.eval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code eval run --local --target postgres} end to end: the first 17 Spider dev questions (concert_singer) loaded into
 * a PostgreSQL started by the command, declared to a job on a MiniCluster under their benchmark ids, asked through a
 * real broker with the simulated LLM (oracle, no injected mistakes) over HTTP, and scored on PostgreSQL with the gold on
 * SQLite. Question 16's gold (a bare column beside an aggregate) is SQLite-only, so its answer shows PostgreSQL's
 * GROUP BY error: the question really went to PostgreSQL.
 */
class TargetRunITCase {

    @Test
    void runOnPostgresqlAsksTheJobOnTheLoadedCopiesAndScoresThere() throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "target-run-it").toAbsolutePath());
        Path answers = dir.resolve("answers.jsonl");
        Files.deleteIfExists(answers);
        int status = EvalCli.commandLine().execute("run", "--benchmark", "spider-dev", "--data", SharedData.root().toString(),
                "--local", "--target", "postgres", "--limit", "17", "--answers", answers.toString(),
                "--out", dir.resolve("report").toString(), "--target-work", dir.resolve("copies").toString(),
                "--deadline", "PT3M", "--parallelism", "1");
        assertThat(status).as("every question answered and scored").isZero();
        List<String> lines = Files.readAllLines(answers);
        assertThat(lines).hasSize(17);
        ObjectMapper json = new ObjectMapper();
        JsonNode target = json.readTree(dir.resolve("report/target-engine.json").toFile());
        assertThat(target.path("engine").asText()).isEqualTo("postgresql");
        assertThat(target.path("scorable").asInt()).isEqualTo(17);
        assertThat(target.path("gold_fails_on_target").size()).isEqualTo(1);
        assertThat(target.path("correct").asInt()).as("the oracle's gold SQL is right wherever it runs on PostgreSQL")
                .isEqualTo(16);
        String q16 = lines.stream().filter(l -> l.contains("select max(capacity), average from stadium")
                || l.contains("\"question\":\"What is the maximum capacity and the average of all stadiums?\"")).findFirst()
                .orElseThrow();
        assertThat(q16.toLowerCase(java.util.Locale.ROOT)).as("PostgreSQL's strict GROUP BY in the answer").contains("group by");
        assertThat(String.join("\n", lines)).doesNotContain(Files.readString(dir.resolve("copies/reader.secret")).strip());
    }
}

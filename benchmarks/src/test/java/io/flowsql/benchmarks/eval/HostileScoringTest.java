package io.flowsql.benchmarks.eval;

import io.flowsql.access.DataDoors;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BirdLoader;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.benchmarks.eval.score.PredictionFormat;
import io.flowsql.benchmarks.eval.score.Scorer;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.ResultComparator;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The scorer survives any line: a generated BIRD-layout benchmark (a SQLite file under target/) scored against
 * hostile predictions, each wrong with its reason within its budget, the report written; and 70 runaway statements
 * finish in about (their budget × the pool's rounds), not the sum of their budgets.
 */
class HostileScoringTest {
    private static final String DB = "hostile";
    private static final int BIG_ROWS = 200_000;
    private static Path folder;

    @BeforeAll
    static void fixture() throws Exception {
        folder = Path.of("target", "hostile-scoring");
        Path dbFolder = folder.resolve("dev_databases").resolve(DB);
        Files.createDirectories(dbFolder);
        Path sqlite = dbFolder.resolve(DB + ".sqlite");
        Files.deleteIfExists(sqlite);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sqlite); Statement s = c.createStatement()) {
            // seven columns holding the same 200,000 values in different row orders: every column order is a candidate
            s.execute("CREATE TABLE big (a INTEGER, b INTEGER, c INTEGER, d INTEGER, e INTEGER, f INTEGER, g INTEGER)");
            s.execute("WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < " + (BIG_ROWS - 1) + ") "
                    + "INSERT INTO big SELECT i, i * 3 % " + BIG_ROWS + ", i * 7 % " + BIG_ROWS + ", i * 9 % " + BIG_ROWS
                    + ", i * 11 % " + BIG_ROWS + ", i * 13 % " + BIG_ROWS + ", i * 17 % " + BIG_ROWS + " FROM n");
        }
    }

    private static void writeBenchmark(Path dir, List<String> goldSql) throws Exception {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < goldSql.size(); i++) {
            json.append(i == 0 ? "" : ",").append("{\"question_id\":").append(i).append(",\"db_id\":\"").append(DB)
                    .append("\",\"question\":\"q").append(i).append("\",\"evidence\":\"\",\"SQL\":")
                    .append(new ObjectMapper().writeValueAsString(goldSql.get(i))).append(",\"difficulty\":\"simple\"}");
        }
        Files.writeString(dir.resolve("dev.json"), json.append("]").toString());
    }

    @Test
    void everyHostileLineIsScoredWrongWithItsReasonAndTheReportIsWritten() throws Exception {
        writeBenchmark(folder, List.of("SELECT 1", "SELECT a, b, c, d, e, f, g FROM big", "SELECT 1", "SELECT 1",
                "SELECT count(*) FROM big"));
        ByteArrayOutputStream lines = new ByteArrayOutputStream();
        lines.writeBytes(("SELECT " + "(".repeat(10_000) + "1" + ")".repeat(10_000) + "\n").getBytes(StandardCharsets.UTF_8));
        lines.writeBytes("SELECT a, b, c, d, e, f, g FROM big\n".getBytes(StandardCharsets.UTF_8));
        lines.writeBytes("SELECT zeroblob(500000000)\n".getBytes(StandardCharsets.UTF_8));
        lines.writeBytes("SELECT 'caf".getBytes(StandardCharsets.UTF_8));
        lines.write(0xE9); // Latin-1 é: not UTF-8
        lines.writeBytes("'\nSELECT count(*) FROM big\n".getBytes(StandardCharsets.UTF_8));
        Path predictions = Files.write(folder.resolve("hostile.sql"), lines.toByteArray());
        Path out = folder.resolve("report");

        // the project's comparison here; the official test-suite semantics' bound is checked in PythonValuesBudgetTest
        for (String semantics : List.of("flowsql-spider-test-suite")) {
            long started = System.nanoTime();
            int exit = new CommandLine(new ScoreCommand()).execute("--benchmark", "bird-dev", "--benchmark-path",
                    folder.toString(), "--predictions", predictions.toString(), "--semantics", semantics, "--parallel", "2",
                    "--out", out.toString());
            double seconds = (System.nanoTime() - started) / 1e9;
            assertThat(exit).isZero();
            JsonNode report = new ObjectMapper().readTree(out.resolve("report.json").toFile());
            List<String> errors = new ArrayList<>();
            report.path("questions").forEach(q -> errors.add(q.path("error").asText("")));
            System.out.printf("%s: hostile file scored and reported in %.1f s%n", semantics, seconds);
            errors.forEach(e -> System.out.println("  " + e.substring(0, Math.min(170, e.length()))));

            assertThat(report.path("ex").path("correct").asInt()).isEqualTo(1);
            assertThat(report.path("ex").path("total").asInt()).isEqualTo(5);
            assertThat(report.path("gold_errors")).isEmpty();
            assertThat(errors).hasSize(5);
            assertThat(errors.get(0)).contains("REFUSED").contains("nested 10000 deep");
            // refused on its planned work, at once: not after trying column orders until the time runs out
            assertThat(errors.get(1)).startsWith("comparison budget exceeded").contains("200000 rows × 7 columns");
            assertThat(errors.get(2)).contains("larger than the result budget");
            assertThat(errors.get(3)).contains("hostile.sql:4").contains("not valid UTF-8").contains("0xE9");
            assertThat(errors.get(4)).isEmpty();
            assertThat(report.path("questions").get(4).path("verdict").asText()).isEqualTo("correct");
            assertThat(out.resolve("report.md")).exists();
            assertThat(out.resolve("report.html")).exists();
        }
    }

    @Test
    void runawayStatementsRunOnTheBoundedPoolNotOneAfterAnother() throws Exception {
        Path dir = Files.createDirectories(folder.resolve("runaways"));
        Path dbLink = dir.resolve("dev_databases");
        if (!Files.exists(dbLink)) {
            Files.createSymbolicLink(dbLink, folder.resolve("dev_databases").toAbsolutePath());
        }
        int statements = 70;
        int parallel = 10;
        long budgetMillis = 1_000;
        List<String> gold = new ArrayList<>();
        StringBuilder predictions = new StringBuilder();
        for (int i = 0; i < statements; i++) {
            gold.add("SELECT " + i);
            predictions.append("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) + ")
                    .append(i).append(" FROM c\n");
        }
        writeBenchmark(dir, gold);
        Path file = Files.writeString(dir.resolve("runaways.sql"), predictions);
        Benchmark bench = new BirdLoader().load(dir);

        long started = System.nanoTime();
        List<ItemOutcome> outcomes;
        try (SqliteSafeExecutor executor = ScoreCommand.executorFor(bench, budgetMillis, 64L << 20, parallel)) {
            outcomes = new Scorer(DataDoors.open(executor, null), new ResultComparator(ComparisonMode.BIRD_SET), null, parallel)
                    .score(bench, PredictionFormat.SQL_LINES.read(file), n -> {});
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        int rounds = (statements + parallel - 1) / parallel;
        System.out.printf("%d runaway statements, budget %d ms, pool %d (%d rounds): %.1f s; one after another would be %.1f s%n",
                statements, budgetMillis, parallel, rounds, seconds, statements * budgetMillis / 1000.0);

        assertThat(outcomes).hasSize(statements);
        assertThat(outcomes).extracting(ItemOutcome::item).extracting(i -> i.id())
                .containsExactlyElementsOf(bench.runnableItems().stream().map(i -> i.id()).toList());
        assertThat(outcomes).allSatisfy(o -> {
            assertThat(o.correct()).isFalse();
            assertThat(o.predError()).contains("TIMEOUT");
        });
        // rounds × budget is 7 s; the sum of the budgets is 70 s: a loaded machine gets well over the ideal, never near the sum
        assertThat(seconds).isLessThan(statements * budgetMillis / 1000.0 / 3);
    }
}

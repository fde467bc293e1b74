package io.flowsql.benchmarks.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.benchmarks.eval.load.BenchmarkLoaders;
import io.flowsql.benchmarks.eval.target.TargetDatabases;
import io.flowsql.sql.engine.DatabaseEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code eval score --target duckdb} through the command line: a Spider-style file (one SQL a line, all 1,034
 * questions: the gold, question 1 wrong) scored on the first 24 questions ({@code --limit}) against DuckDB copies the
 * command loads; and the copies of a running server taken from its options file.
 */
class TargetScoreCommandTest {

    @Test
    void scoreOnDuckDbThroughTheCommandLine() throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "target-score-command").toAbsolutePath());
        Benchmark spider = new BenchmarkLoaders(SharedData.root()).load("spider-dev", null);
        List<String> lines = new ArrayList<>();
        for (BenchmarkItem item : spider.items()) {
            lines.add(item.ordinal() == 1 ? "SELECT count(*) + 1 FROM singer" : item.goldSql().replace('\n', ' '));
        }
        Path predictions = Files.write(dir.resolve("predictions.sql"), lines);
        int status = EvalCli.commandLine().execute("score", "--benchmark", "spider-dev", "--data", SharedData.root().toString(),
                "--target", "duckdb", "--limit", "24", "--predictions", predictions.toString(), "--format", "sql-lines",
                "--out", dir.resolve("report").toString(), "--target-work", dir.resolve("copies").toString(), "--parallel", "2");
        assertThat(status).isZero();
        JsonNode target = new ObjectMapper().readTree(dir.resolve("report/target-engine.json").toFile());
        assertThat(target.path("engine").asText()).isEqualTo("duckdb");
        assertThat(target.path("scorable").asInt()).isEqualTo(24);
        assertThat(target.path("gold_fails_on_target").size()).as("16, 22, 23: strict GROUP BY").isEqualTo(3);
        assertThat(target.path("correct").asInt()).as("24 - the wrong one - the three SQLite-only golds").isEqualTo(20);
    }

    @Test
    void copiesDeclaredInARunningServersOptionsFile() throws Exception {
        Path file = Files.createDirectories(Path.of("target", "target-score-command")).resolve("databases.properties");
        Files.write(file, List.of("# written by deploy/postgres-start.sh",
                "databases.concert_singer.url=jdbc:postgresql://127.0.0.1:54329/postgres",
                "databases.concert_singer.user=flowsql_reader", "databases.concert_singer.password-file=/nowhere/reader.secret",
                "databases.concert_singer.schemas=concert_singer"));
        try (TargetDatabases copies = TargetDatabases.declaredIn(file, DatabaseEngine.POSTGRESQL, Set.of("concert_singer"))) {
            assertThat(copies.declared()).singleElement().satisfies(d -> {
                assertThat(d.id()).isEqualTo("concert_singer");
                assertThat(d.schemas()).containsExactly("concert_singer");
            });
        }
        assertThatThrownBy(() -> TargetDatabases.declaredIn(file, DatabaseEngine.POSTGRESQL, Set.of("concert_singer", "pets_1")))
                .hasMessageContaining("[pets_1]").hasMessageContaining("postgres-start.sh pets_1");
        assertThatThrownBy(() -> TargetDatabases.declaredIn(file, DatabaseEngine.DUCKDB, Set.of("concert_singer")))
                .hasMessageContaining("declares no DuckDB database");
    }
}

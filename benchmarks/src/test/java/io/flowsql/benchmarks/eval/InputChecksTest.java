package io.flowsql.benchmarks.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkLoaders;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The score command through its command line: files that would be mis-scored are refused with a message that says why. */
class InputChecksTest {
    private static final Path DIR = Path.of("target", "input-checks");
    private static Path runnableGold;

    @BeforeAll
    static void files() throws Exception {
        Files.createDirectories(DIR);
        // Spider dev's gold, only the lines of the 972 questions whose database exists here, as some published files are
        Benchmark spider = new BenchmarkLoaders(SharedData.root()).load("spider-dev", null);
        List<String> gold = Files.readAllLines(SharedData.root().resolve("spider/dev_gold.sql"));
        List<String> lines = new ArrayList<>();
        spider.runnableItems().forEach(i -> lines.add(gold.get(i.ordinal())));
        runnableGold = Files.write(DIR.resolve("gold-972.sql"), lines);
    }

    private record Run(int exit, String out, String err) {}

    private static Run eval(String... args) {
        StringWriter err = new StringWriter();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream stderr = new java.io.ByteArrayOutputStream();
        java.io.PrintStream savedOut = System.out;
        java.io.PrintStream savedErr = System.err;
        CommandLine cli = EvalCli.commandLine();
        cli.setErr(new PrintWriter(err, true));
        int exit;
        try {
            System.setOut(new java.io.PrintStream(out, true));
            System.setErr(new java.io.PrintStream(stderr, true));
            exit = cli.execute(args);
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
        return new Run(exit, out.toString(), err + stderr.toString());
    }

    /** Every benchmark the loaders know is named in the help of both commands that take --benchmark. */
    @Test
    void runAndScoreHelpNameEveryBenchmarkMmsqlTestIncluded() {
        for (String command : List.of("run", "score")) {
            String help = EvalCli.commandLine().getSubcommands().get(command).getUsageMessage();
            assertThat(help).as(command).contains("spider-dev", "bird-minidev", "cosql-dev", "mmsql-test");
        }
    }

    @Test
    void a972LineFileIsRefusedNamingBothCountsAndScoresWithOnlyRunnable() throws Exception {
        Run refused = eval("score", "--benchmark", "spider-dev", "--data", SharedData.root().toString(),
                "--predictions", runnableGold.toString(), "--out", DIR.resolve("refused").toString());
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains("972 predictions").contains("1034 questions").contains("--only-runnable");
        assertThat(DIR.resolve("refused/report.json")).doesNotExist();

        Run ok = eval("score", "--benchmark", "spider-dev", "--data", SharedData.root().toString(), "--only-runnable",
                "--predictions", runnableGold.toString(), "--out", DIR.resolve("aligned").toString());
        assertThat(ok.exit()).as(ok.err()).isZero();
        assertThat(ok.out()).contains("[spider-exec] EX 100.00% (972/972)").contains("62 without their database here");
        JsonNode report = new ObjectMapper().readTree(DIR.resolve("aligned/report.json").toFile());
        assertThat(report.at("/semantics").asText()).isEqualTo("spider-exec");
        assertThat(report.at("/questions").size()).isEqualTo(972);
        assertThat(report.at("/without_database").asInt()).isEqualTo(62);
        // gold against itself: every question right, at every hardness level, no gold error
        report.at("/questions").forEach(q -> assertThat(q.path("verdict").asText()).as(q.toString()).isEqualTo("correct"));
        report.at("/ex_by_difficulty").forEach(level -> assertThat(level.path("percent").asDouble()).isEqualTo(100.0));
        assertThat(report.at("/gold_errors").size()).isZero();
    }

    @Test
    void nothingScoredIsAnErrorNotZeroOfZero() throws Exception {
        // BIRD mini-dev has no databases here: a complete prediction file (500 entries) can score nothing
        StringBuilder json = new StringBuilder("{");
        for (int i = 0; i < 500; i++) {
            json.append(i == 0 ? "" : ",").append('"').append(i).append("\": \"SELECT 1\\t----- bird -----\\tdebit_card_specializing\"");
        }
        Path bird = Files.writeString(DIR.resolve("predict_dev.json"), json.append('}'));
        Run run = eval("score", "--benchmark", "bird-minidev", "--data", SharedData.root().toString(), "--predictions",
                bird.toString(), "--out", DIR.resolve("nothing").toString());
        assertThat(run.exit()).isEqualTo(3);
        assertThat(run.err()).contains("no question of bird-minidev was scored");
    }

    @Test
    void anUnknownLayoutNamesWhatWasExpected() throws Exception {
        Path object = Files.writeString(DIR.resolve("object.json"), "{\"0\": \"SELECT 1\"}");
        Run run = eval("score", "--benchmark", "mmsql-test", "--data", SharedData.root().toString(), "--format", "mmsql",
                "--predictions", object.toString(), "--out", DIR.resolve("layout").toString());
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("not MMSQL's output layout").contains("predict_type");
        Path noTurns = Files.writeString(DIR.resolve("no-turns.json"), "[{\"db_name\": \"car_1\", \"turns\": []}]");
        Run bench = eval("score", "--benchmark", "cosql-dev", "--benchmark-path", noTurns.toString(), "--data",
                SharedData.root().toString(), "--predictions", object.toString(), "--out", DIR.resolve("layout2").toString());
        assertThat(bench.exit()).isEqualTo(2);
        assertThat(bench.err()).contains("no user turns").contains("isuser");
    }
}

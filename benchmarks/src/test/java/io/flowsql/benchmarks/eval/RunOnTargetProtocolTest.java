package io.flowsql.benchmarks.eval;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.benchmarks.eval.load.BenchmarkLoaders;
import io.flowsql.benchmarks.eval.score.RequestIds;
import io.flowsql.benchmarks.eval.target.TargetDatabases;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code eval run --target duckdb} on MMSQL: after the job's answers are in, the run is scored on the engine it asked
 * on, and what it prints and writes names the dialogue history protocol it was run with (gold: MMSQL's published one;
 * own: not comparable with it). The answers file stands for the job's (the first dialogues' gold SQL as answers).
 */
class RunOnTargetProtocolTest {

    @Test
    void theOnTargetScoreOfARunPrintsItsHistoryProtocol() throws Exception {
        Path root = Files.createDirectories(Path.of("target", "run-on-target-protocol").toAbsolutePath());
        Benchmark mmsql = new BenchmarkLoaders(SharedData.root()).load("mmsql-test", null);
        Benchmark firstDialogues = mmsql.withItems(mmsql.runnableItems().stream().limit(6).toList());
        assertThat(firstDialogues.items()).as("a dialogue with later turns").anyMatch(i -> i.turnIndex() > 0);
        Path answers = root.resolve("answers.jsonl");
        List<String> lines = new ArrayList<>();
        for (BenchmarkItem item : firstDialogues.items()) {
            AnswerEvent a = new AnswerEvent();
            a.requestId = RequestIds.requestId("protocol-test", "mmsql-test", item.id());
            a.dbId = item.dbId();
            a.question = item.question();
            a.questionType = item.questionType();
            a.sql = item.owesSql() ? item.goldSql() : null;
            a.status = "answered";
            a.answeredAt = "2026-11-27T00:00:00Z";
            lines.add(new String(EventJson.toBytes(a), StandardCharsets.UTF_8));
        }
        Files.write(answers, lines);

        try (TargetDatabases copies = run(root.resolve("loading"), answers, "own").target.open(firstDialogues, 2)) {
            for (String history : List.of("gold", "own")) {
                Path report = root.resolve(history);
                RunCommand run = run(report, answers, history);
                PrintStream out = System.out;
                ByteArrayOutputStream captured = new ByteArrayOutputStream();
                try {
                    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
                    run.scoreAnswers(firstDialogues, copies);
                } finally {
                    System.setOut(out);
                }
                String printed = captured.toString(StandardCharsets.UTF_8);
                System.out.print(printed);
                String expected = HistoryProtocol.parse(history).description();
                assertThat(printed).as("the printed figures of a %s-history run on DuckDB", history)
                        .contains("protocol: " + expected).contains("on DuckDB");
                assertThat(Files.readString(report.resolve("report.json"))).contains(expected);
                assertThat(Files.readString(report.resolve("report.md"))).contains(expected);
            }
        }
    }

    /** The run command as {@code eval run --target duckdb --history <history>} parses it, reporting to {@code out}. */
    private static RunCommand run(Path out, Path answers, String history) {
        CommandLine cli = EvalCli.commandLine();
        cli.parseArgs("run", "--benchmark", "mmsql-test", "--data", SharedData.root().toString(), "--target", "duckdb",
                "--history", history, "--answers", answers.toString(), "--out", out.toString(),
                "--target-work", out.getParent().resolve("copies").toString());
        return cli.getSubcommands().get("run").getCommand();
    }
}

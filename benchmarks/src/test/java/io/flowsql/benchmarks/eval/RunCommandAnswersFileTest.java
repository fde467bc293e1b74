package io.flowsql.benchmarks.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Where {@code eval.sh run} keeps its resumable answers: two runs with different {@code --out} folders used to share
 * {@code eval-report/answers.jsonl}, so the second refused to start ("already holds answers of run ...") or, resumed,
 * mixed two runs' answers.
 */
class RunCommandAnswersFileTest {
    private static RunCommand parse(String... args) {
        CommandLine cli = EvalCli.commandLine();
        cli.parseArgs(args);
        return cli.getSubcommands().get("run").getCommand();
    }

    @Test
    void eachOutFolderKeepsItsOwnAnswers() {
        RunCommand pg = parse("run", "--benchmark", "spider-dev", "--out", "eval-pg");
        RunCommand report = parse("run", "--benchmark", "spider-dev", "--out", "eval-report");
        assertThat(pg.answersFile()).isEqualTo(Path.of("eval-pg", "answers.jsonl"));
        assertThat(report.answersFile()).isEqualTo(Path.of("eval-report", "answers.jsonl"));
        assertThat(parse("run", "--benchmark", "spider-dev").answersFile())
                .isEqualTo(Path.of("eval-report", "answers.jsonl"));
    }

    @Test
    void aGivenAnswersFileIsKept() {
        assertThat(parse("run", "--benchmark", "spider-dev", "--out", "eval-pg", "--answers", "mine.jsonl").answersFile())
                .isEqualTo(Path.of("mine.jsonl"));
    }
}

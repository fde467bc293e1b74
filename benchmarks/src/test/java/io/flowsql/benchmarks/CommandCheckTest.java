package io.flowsql.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link CommandCheck} refuses each way a documented command can rot, and accepts the commands as they are. */
class CommandCheckTest {

    private final CommandCheck check = new CommandCheck(ReadmeCommandsTest.ROOT);

    private List<String> problems(String line) {
        List<List<String>> commands = ShellCommands.of(line);
        assertThat(commands).hasSize(1);
        return check.problems(commands.get(0));
    }

    @Test
    void acceptsWorkingCommands() {
        assertThat(problems("deploy/flowsql.sh watch --ids-file work/mine.ids --timeout 120s")).isEmpty();
        assertThat(problems("deploy/eval.sh score --benchmark spider-dev --predictions p.sql --out eval-c3")).isEmpty();
        assertThat(problems("deploy/bench.sh throughput --presets opensearch,full --slots 8,32,64")).isEmpty();
        assertThat(problems("deploy/bench.sh llm-client 5000")).isEmpty();
        assertThat(problems("QUICKSTART_DB=pets_1 deploy/quickstart.sh \"How many pets?\"")).isEmpty();
        assertThat(problems("deploy/flowsql-sql.sh --local -D llm.base-url=http://127.0.0.1:8000/v1")).isEmpty();
    }

    @Test
    void refusesAMissingScript() {
        assertThat(problems("deploy/quickstrat.sh")).containsExactly("no script deploy/quickstrat.sh");
    }

    @Test
    void refusesAFlagTheJavaCommandDoesNotDeclare() {
        assertThat(problems("deploy/flowsql.sh watch --ids-fil work/mine.ids"))
                .containsExactly("deploy/flowsql.sh watch takes no option --ids-fil");
        // a flag that exists on another subcommand is still wrong on this one
        assertThat(problems("deploy/flowsql.sh watch --db concert_singer")).hasSize(1);
        assertThat(problems("deploy/bench.sh soak --minuets 60")).containsExactly("deploy/bench.sh takes no option --minuets");
    }

    @Test
    void refusesAFlagTheScriptDoesNotHandle() {
        assertThat(problems("deploy/flowsql-sql.sh --remote -D x=y")).containsExactly("deploy/flowsql-sql.sh takes no option --remote");
    }

    @Test
    void refusesAMissingSubcommand() {
        assertThat(problems("deploy/eval.sh scoer --benchmark spider-dev")).singleElement()
                .asString().startsWith("deploy/eval.sh has no subcommand scoer");
        assertThat(problems("deploy/bench.sh thruput")).singleElement().asString().startsWith("deploy/bench.sh has no subcommand thruput");
    }

    @Test
    void refusesAnEnvironmentVariableNoScriptReads() {
        assertThat(problems("QUICKSTART_DATABASE=pets_1 deploy/quickstart.sh"))
                .containsExactly("deploy/quickstart.sh reads no variable QUICKSTART_DATABASE");
    }

    @Test
    void refusesAToolTheReadmeDoesNotNameAsANeed() {
        assertThat(problems("kcat -X isolation.level=read_committed -C -t answers")).singleElement()
                .asString().startsWith("`kcat` is neither a project script");
    }

    @Test
    void splitsLoopsListsAndContinuations() {
        List<List<String>> commands = ShellCommands.of("""
                until [[ -f work/q.serving ]]; do sleep 2; done # wait
                deploy/eval.sh score --predictions "a b.txt" \\
                  --out x    # comment
                kill %1; wait
                """);
        assertThat(commands).containsExactly(List.of("[[", "-f", "work/q.serving", "]]"), List.of("sleep", "2"),
                List.of("deploy/eval.sh", "score", "--predictions", "a b.txt", "--out", "x"), List.of("kill", "%1"), List.of("wait"));
    }
}

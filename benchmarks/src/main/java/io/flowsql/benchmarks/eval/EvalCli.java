package io.flowsql.benchmarks.eval;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.UncheckedIOException;

/**
 * The one entry point for bulk evaluation: {@code run} a benchmark through the pipeline, {@code score} a prediction file,
 * {@code diff} two reports, {@code fewshot-library} build OpenSearch-SQL's example library, {@code repair-memory} SQLFixAgent's seed repairs.
 */
@Command(name = "flowsql-eval", mixinStandardHelpOptions = true,
        subcommands = {RunCommand.class, ScoreCommand.class, DiffCommand.class, FewShotLibraryCommand.class,
                RepairMemoryCommand.class},
        description = "Bulk evaluation of FlowSQL on Spider, BIRD, CoSQL and the MMSQL test suite.")
public final class EvalCli {

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line with input errors (a wrong layout, a line count that does not fit) reported as one message, exit code 2. */
    static CommandLine commandLine() {
        return new CommandLine(new EvalCli()).setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof IllegalArgumentException || e instanceof UncheckedIOException) {
                System.err.println("error: " + e.getMessage());
                return 2;
            }
            throw e;
        });
    }
}

package io.flowsql.benchmarks.eval;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The one entry point for bulk evaluation: {@code run} a benchmark through the pipeline, {@code score} a prediction file. */
@Command(name = "flowsql-eval", mixinStandardHelpOptions = true, subcommands = {RunCommand.class, ScoreCommand.class, FewShotLibraryCommand.class},
        description = "Bulk evaluation of FlowSQL on Spider, BIRD and CoSQL/MMSQL.")
public final class EvalCli {

    public static void main(String[] args) {
        System.exit(new CommandLine(new EvalCli()).execute(args));
    }
}

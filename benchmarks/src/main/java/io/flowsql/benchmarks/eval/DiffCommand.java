package io.flowsql.benchmarks.eval;

import io.flowsql.benchmarks.eval.report.ReportDiff;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code diff}: compares two {@code report.json} files question by question and lists the questions whose verdict changed. */
@Command(name = "diff", mixinStandardHelpOptions = true,
        description = "List the questions whose verdict differs between two report.json files (before, after).")
public final class DiffCommand implements Callable<Integer> {

    @Parameters(index = "0", description = "report.json of the first run (or its folder)")
    Path before;

    @Parameters(index = "1", description = "report.json of the second run (or its folder)")
    Path after;

    @Override
    public Integer call() {
        ReportDiff diff = ReportDiff.of(ReportDiff.read(before), ReportDiff.read(after));
        System.out.print(diff.render());
        return 0;
    }
}

package io.flowsql.benchmarks.eval;

import io.flowsql.benchmarks.eval.semantics.Semantics;
import io.flowsql.benchmarks.eval.semantics.SemanticsChoice;
import io.flowsql.sql.compare.ComparisonMode;
import picocli.CommandLine.Option;

import io.flowsql.benchmarks.eval.report.EvaluationSummary;
import io.flowsql.benchmarks.eval.report.Headline;
import io.flowsql.benchmarks.eval.report.ReportWriter;

import io.flowsql.benchmarks.eval.report.SimulatedAnswers;
import java.nio.file.Path;
import java.util.List;

/** How answers are scored and where the reports go, shared by {@code score} and {@code run}. */
public final class ReportChoice {

    @Option(names = "--semantics", description = "How questions are judged: spider-exec (official Spider test-suite evaluator, "
            + "exec mode, its defaults), bird-exec (official BIRD evaluator), mmsql-accs (MMSQL's accs_eval.py, replayed on an MMSQL output file), flowsql-mmsql (the project's reading of MMSQL), "
            + "flowsql-spider-test-suite or flowsql-bird-set (the project's own comparator). Default: the benchmark's official one")
    String semantics;

    @Option(names = "--comparison",
            description = "The project's own comparator: BIRD_SET or SPIDER_TEST_SUITE (same as --semantics flowsql-...)")
    ComparisonMode comparison;

    @Option(names = "--price-prompt", defaultValue = "0", description = "Price per 1M prompt tokens")
    double pricePrompt;

    @Option(names = "--price-completion", defaultValue = "0", description = "Price per 1M completion tokens")
    double priceCompletion;

    @Option(names = "--out", defaultValue = "eval-report", description = "Folder for report.md/html/json")
    Path out;

    /** The semantics asked for, else the benchmark's official evaluator's. */
    Semantics semanticsFor(String benchmark) {
        return SemanticsChoice.of(semantics, comparison, benchmark);
    }

    /**
     * Writes the reports and prints the headline with the semantics and the scored/excluded counts; exit code 0, or 3
     * when nothing was scored (a wrong layout or a wrong benchmark gives 0/0, which must never pass for a result).
     */
    static int finish(EvaluationSummary summary, Path out) {
        if (summary.simulation() == null || summary.simulation().answers() == 0) {
            summary = summary.withSimulation(SimulatedAnswers.read(Path.of(summary.predictions())));
        }
        List<Path> files = new ReportWriter().write(summary, out);
        System.out.println(Headline.of(summary));
        files.forEach(f -> System.out.println("wrote " + f));
        if (Headline.nothingScored(summary)) {
            System.err.printf("error: no question of %s was scored (%d questions, %d with their database here): check "
                    + "--benchmark, --format and the file's layout%n", summary.benchmark(), summary.questions(), summary.runnable());
            return 3;
        }
        return 0;
    }
}

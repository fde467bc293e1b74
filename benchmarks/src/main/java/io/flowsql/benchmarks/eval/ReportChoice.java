package io.flowsql.benchmarks.eval;

import io.flowsql.sql.compare.ComparisonMode;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.Locale;

/** How answers are scored and where the reports go, shared by {@code score} and {@code run}. */
public final class ReportChoice {

    @Option(names = "--comparison",
            description = "BIRD_SET or SPIDER_TEST_SUITE (default: the benchmark's own: BIRD_SET for BIRD, SPIDER_TEST_SUITE otherwise)")
    ComparisonMode comparison;

    @Option(names = "--price-prompt", defaultValue = "0", description = "Price per 1M prompt tokens")
    double pricePrompt;

    @Option(names = "--price-completion", defaultValue = "0", description = "Price per 1M completion tokens")
    double priceCompletion;

    @Option(names = "--out", defaultValue = "eval-report", description = "Folder for report.md/html/json")
    Path out;

    /** The comparison asked for, else the benchmark's own evaluator's: BIRD's set semantics for BIRD, Spider's test suite for the rest. */
    static ComparisonMode comparisonFor(ComparisonMode asked, String benchmark) {
        if (asked != null) {
            return asked;
        }
        return benchmark.toLowerCase(Locale.ROOT).startsWith("bird") ? ComparisonMode.BIRD_SET : ComparisonMode.SPIDER_TEST_SUITE;
    }

    ComparisonMode comparisonFor(String benchmark) {
        return comparisonFor(comparison, benchmark);
    }
}

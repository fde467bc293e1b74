package io.flowsql.benchmarks.eval.semantics;

import io.flowsql.sql.compare.ComparisonMode;

import java.util.List;
import java.util.Locale;

/** Resolves the semantics named on the command line, or the benchmark's official one when none is named. */
public final class SemanticsChoice {
    public static final List<String> NAMES = List.of(SpiderTestSuiteExec.ID, BirdExec.ID, MmsqlAccsExec.ID, MmsqlAccsExec.OWN_ID,
            FlowsqlComparison.idOf(ComparisonMode.SPIDER_TEST_SUITE), FlowsqlComparison.idOf(ComparisonMode.BIRD_SET));

    private SemanticsChoice() {}

    /**
     * @param name       a name of {@link #NAMES}, or null
     * @param comparison the older {@code --comparison} option (the project's own comparator), or null
     * @param benchmark  the benchmark name, for the default
     */
    public static Semantics of(String name, ComparisonMode comparison, String benchmark) {
        if (name != null && comparison != null) {
            throw new IllegalArgumentException("give --semantics or --comparison, not both");
        }
        if (comparison != null) {
            return new FlowsqlComparison(comparison);
        }
        String n = name != null ? name.toLowerCase(Locale.ROOT) : defaultFor(benchmark);
        return switch (n) {
            case SpiderTestSuiteExec.ID -> new SpiderTestSuiteExec();
            case BirdExec.ID -> new BirdExec();
            case MmsqlAccsExec.ID -> new MmsqlAccsExec();
            case MmsqlAccsExec.OWN_ID -> new MmsqlAccsExec(MmsqlAccsExec.OWN_ID);
            case "flowsql-spider-test-suite" -> new FlowsqlComparison(ComparisonMode.SPIDER_TEST_SUITE);
            case "flowsql-bird-set" -> new FlowsqlComparison(ComparisonMode.BIRD_SET);
            default -> throw new IllegalArgumentException("unknown semantics '" + name + "' (expected one of " + NAMES + ")");
        };
    }

    /** The benchmark's own evaluator: BIRD's for BIRD, MMSQL's for the MMSQL test suite, Spider's test suite otherwise. */
    public static String defaultFor(String benchmark) {
        String b = benchmark.toLowerCase(Locale.ROOT);
        if (b.startsWith("bird")) {
            return BirdExec.ID;
        }
        if (b.startsWith("mmsql")) {
            return MmsqlAccsExec.ID;
        }
        return SpiderTestSuiteExec.ID;
    }
}

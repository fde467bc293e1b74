package io.flowsql.benchmarks.eval.report;

import io.flowsql.benchmarks.eval.metrics.Accuracy;

import java.util.Locale;

/** The one-line result every report and the console start with: the semantics, the figures, and what was scored or left out. */
public final class Headline {
    private Headline() {}

    public static String of(EvaluationSummary s) {
        StringBuilder line = new StringBuilder(s.simulation() == null ? "" : s.simulation().headlinePrefix())
                .append(s.benchmark()).append(" [").append(s.comparison()).append("] ");
        if (s.mmsql() != null) {
            line.append(pct("TDEX", s.mmsql().tdex())).append(", ").append(pct("EX", s.mmsql().ex())).append(", ")
                    .append(pct("IEX", s.mmsql().iex())).append(String.format(Locale.ROOT, ", average type F1 %.1f%%",
                            100 * s.mmsql().averageF1()));
        } else {
            line.append(pct("EX", s.ex()));
        }
        if (s.rqs() != null) {
            line.append(String.format(Locale.ROOT, ", RQS %.2f (judge %s)", s.rqs().overall(), s.rqs().judgeModel()));
        }
        line.append(" — ").append(counts(s));
        if (s.protocol() != null) {
            line.append("; protocol: ").append(s.protocol());
        }
        return line.toString();
    }

    /** What was scored and what was left out, and why. */
    public static String counts(EvaluationSummary s) {
        return String.format(Locale.ROOT, "scored %d of %d questions; left out: %d without their database here, %d gold errors; "
                + "%d without prediction", s.runnable() - s.goldErrors().size(), s.questions(), s.withoutDatabase(),
                s.goldErrors().size(), s.missingPredictions());
    }

    /** True when no question was scored at all: then the figures mean nothing. */
    public static boolean nothingScored(EvaluationSummary s) {
        int scored = s.ex().total() + (s.mmsql() != null ? s.mmsql().tdex().total() : s.tdex().total());
        return scored == 0;
    }

    static String pct(String name, Accuracy a) {
        return String.format(Locale.ROOT, "%s %.2f%% (%d/%d)", name, a.percent(), a.correct(), a.total());
    }
}

package io.flowsql.benchmarks.eval.report;

import io.flowsql.benchmarks.eval.metrics.Accuracy;
import io.flowsql.benchmarks.eval.metrics.Percentiles;
import io.flowsql.benchmarks.eval.metrics.PrecisionRecall;

import java.util.Locale;
import java.util.Map;

/** Renders a summary as Markdown tables, for pull requests and the README. */
public final class MarkdownReport {

    public String render(EvaluationSummary s) {
        StringBuilder md = new StringBuilder();
        md.append("# Evaluation: ").append(s.benchmark()).append("\n\n");
        md.append("- predictions: `").append(s.predictions()).append("`\n");
        md.append("- semantics: **").append(s.comparison()).append("** — ").append(s.semanticsDescription()).append("\n");
        md.append("- **").append(Headline.of(s)).append("**\n\n");
        if (s.mmsql() != null) {
            md.append("## MMSQL (").append(s.comparison()).append(")\n\n| metric | correct | total | % |\n|---|---:|---:|---:|\n");
            row(md, "TDEX", s.mmsql().tdex());
            row(md, "EX (answerable in gold and prediction)", s.mmsql().ex());
            row(md, "IEX (dialogues)", s.mmsql().iex());
            md.append("\n| type | precision | recall | F1 | turns |\n|---|---:|---:|---:|---:|\n");
            s.mmsql().types().forEach((t, p) -> md.append("| ").append(t).append(" | ").append(f3(p.precision())).append(" | ")
                    .append(f3(p.recall())).append(" | ").append(f3(p.f1())).append(" | ").append(p.support()).append(" |\n"));
            md.append("| **average F1** | | | ").append(f3(s.mmsql().averageF1())).append(" | |\n\n");
        }
        if (s.mmsql() == null) {
            md.append("## Execution accuracy\n\n| difficulty | correct | total | EX % |\n|---|---:|---:|---:|\n");
            s.exByDifficulty().forEach((level, a) -> row(md, level, a));
            row(md, "**all**", s.ex());
        }
        if (s.measuredEfficiency()) {
            md.append("\n| VES | R-VES |\n|---:|---:|\n| ").append(f2(s.ves())).append(" | ").append(f2(s.rves())).append(" |\n");
        }
        if (s.dialogues() && s.mmsql() == null) {
            md.append("\n## Dialogues\n\n| metric | correct | total | % |\n|---|---:|---:|---:|\n");
            row(md, "TDEX", s.tdex());
            row(md, "IEX", s.iex());
            md.append("\n| question type | TDEX % | turns | precision | recall | F1 |\n|---|---:|---:|---:|---:|---:|\n");
            for (Map.Entry<String, PrecisionRecall> e : s.typeDetection().entrySet()) {
                Accuracy t = s.tdexByType().getOrDefault(e.getKey(), Accuracy.empty());
                PrecisionRecall p = e.getValue();
                md.append("| ").append(e.getKey()).append(" | ").append(f2(t.percent())).append(" | ").append(p.support())
                        .append(" | ").append(f3(p.precision())).append(" | ").append(f3(p.recall())).append(" | ")
                        .append(f3(p.f1())).append(" |\n");
            }
        }
        if (s.rqs() != null) {
            md.append("\n## RQS (LLM judge ").append(s.rqs().judgeModel()).append(")\n\n| type | turns | average RQS |\n|---|---:|---:|\n");
            s.rqs().byType().forEach((t, v) -> md.append("| ").append(t).append(" | ").append(s.rqs().turns().get(t)).append(" | ")
                    .append(f2(v)).append(" |\n"));
            md.append("| **overall** (mean of the types) | | ").append(f2(s.rqs().overall())).append(" |\n\n")
                    .append(s.rqs().judged()).append(" replies judged, ").append(s.rqs().errors()).append(" without a score.\n");
        }
        if (s.hasTrace()) {
            md.append("\n## Latency per stage (ms)\n\n| stage | n | mean | p50 | p90 | p95 | p99 | max |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
            for (Map.Entry<String, Percentiles> e : s.latencyByStage().entrySet()) {
                Percentiles p = e.getValue();
                md.append("| ").append(e.getKey()).append(" | ").append(p.count()).append(" | ").append(f2(p.mean()))
                        .append(" | ").append(p.p50()).append(" | ").append(p.p90()).append(" | ").append(p.p95())
                        .append(" | ").append(p.p99()).append(" | ").append(p.max()).append(" |\n");
            }
        }
        if (s.hasTokens()) {
            md.append("\n## Tokens").append(s.hasPrices() ? " and cost" : "").append("\n\n| prompt tokens | completion tokens | tokens / question |")
                    .append(s.hasPrices() ? " cost | cost / question |" : "").append("\n|---:|---:|---:|").append(s.hasPrices() ? "---:|---:|" : "")
                    .append("\n| ").append(s.tokens().promptTokens()).append(" | ").append(s.tokens().completionTokens()).append(" | ")
                    .append(f2(s.tokens().tokensPerQuestion())).append(" |");
            if (s.hasPrices()) {
                md.append(' ').append(String.format(Locale.ROOT, "%.4f", s.tokens().cost())).append(" | ")
                        .append(String.format(Locale.ROOT, "%.6f", s.tokens().costPerQuestion())).append(" |\n\nPrices: ")
                        .append(s.tokens().pricePerMillionPrompt()).append(" per 1M prompt tokens, ")
                        .append(s.tokens().pricePerMillionCompletion()).append(" per 1M completion tokens.");
            }
            md.append('\n');
        }
        if (!s.goldErrors().isEmpty()) {
            md.append("\n## Gold queries that failed (not counted)\n\n| item | database | error |\n|---|---|---|\n");
            s.goldErrors().forEach(g -> md.append("| ").append(g.itemId()).append(" | ").append(g.dbId()).append(" | ")
                    .append(g.error().replace('|', '/').replace('\n', ' ')).append(" |\n"));
        }
        return md.toString();
    }

    private static void row(StringBuilder md, String name, Accuracy a) {
        md.append("| ").append(name).append(" | ").append(a.correct()).append(" | ").append(a.total()).append(" | ")
                .append(f2(a.percent())).append(" |\n");
    }

    static String f2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    static String f3(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }
}

package io.flowsql.benchmarks.eval.report;

import io.flowsql.benchmarks.eval.metrics.Accuracy;
import io.flowsql.benchmarks.eval.metrics.Percentiles;
import org.apache.commons.text.StringEscapeUtils;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A self-contained HTML page: the Markdown report's tables plus charts (EX per difficulty, TDEX per
 * question type, p50 latency per stage, a histogram of tokens per question) embedded as base64 PNG images.
 */
public final class HtmlReport {
    private final MarkdownReport markdown = new MarkdownReport();

    public String render(EvaluationSummary s) {
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>")
                .append(escape("Evaluation: " + s.benchmark())).append("</title>\n<style>body{font-family:sans-serif;max-width:960px;margin:2em auto}"
                        + "pre{background:#f6f6f6;padding:1em;overflow-x:auto}img{display:block;margin:1em 0}</style></head><body>\n");
        html.append("<h1>").append(escape("Evaluation: " + s.benchmark())).append("</h1>\n");
        html.append("<p>EX semantics: <b>").append(escape(s.comparison())).append("</b> — EX ")
                .append(MarkdownReport.f2(s.ex().percent())).append("% (").append(s.ex().correct()).append('/')
                .append(s.ex().total()).append(")</p>\n");
        image(html, "EX per difficulty", ChartImages.bars("Execution accuracy per difficulty", "difficulty", "EX %",
                labels(s.exByDifficulty()), percents(s.exByDifficulty())));
        if (s.dialogues()) {
            image(html, "TDEX per question type", ChartImages.bars("TDEX per question type", "question type", "TDEX %",
                    labels(s.tdexByType()), percents(s.tdexByType())));
        }
        if (s.hasTrace()) {
            List<String> stages = new ArrayList<>(s.latencyByStage().keySet());
            List<Long> p50 = s.latencyByStage().values().stream().map(Percentiles::p50).toList();
            image(html, "latency per stage", ChartImages.bars("Latency per stage (p50, ms)", "stage", "ms", stages, p50));
        }
        if (s.tokensPerQuestion().stream().anyMatch(t -> t.longValue() > 0)) {
            TokenHistogram histogram = TokenHistogram.of(s.tokensPerQuestion(), 12);
            image(html, "tokens per question", ChartImages.bars("Tokens per question (questions per range)",
                    "tokens per question", "questions", histogram.labels(), histogram.counts()));
        }
        html.append("<h2>Tables</h2>\n<pre>").append(escape(markdown.render(s))).append("</pre>\n</body></html>\n");
        return html.toString();
    }

    private static void image(StringBuilder html, String alt, String base64) {
        html.append("<img alt=\"").append(escape(alt)).append("\" src=\"data:image/png;base64,").append(base64).append("\">\n");
    }

    private static List<String> labels(Map<String, Accuracy> table) {
        return table.isEmpty() ? List.of("none") : new ArrayList<>(table.keySet());
    }

    private static List<Double> percents(Map<String, Accuracy> table) {
        return table.isEmpty() ? List.of(0.0) : table.values().stream().map(Accuracy::percent).toList();
    }

    private static String escape(String s) {
        return StringEscapeUtils.escapeHtml4(s);
    }
}

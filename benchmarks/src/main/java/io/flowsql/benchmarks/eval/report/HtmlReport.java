package io.flowsql.benchmarks.eval.report;

import io.flowsql.benchmarks.eval.metrics.Accuracy;
import io.flowsql.benchmarks.eval.metrics.Percentiles;
import io.flowsql.benchmarks.eval.metrics.PrecisionRecall;
import org.apache.commons.text.StringEscapeUtils;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A self-contained HTML page: the headline with the semantics and what was scored or left out, HTML tables of every
 * figure, charts (percentages on a fixed 0–100 % axis) embedded as base64 PNGs, and a per-question table that sorts by
 * a click on a column header and filters by text and verdict. Sections without data are left out.
 */
public final class HtmlReport {
    private static final String STYLE = "body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em}"
            + "table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left;"
            + "vertical-align:top}td.n{text-align:right}th{background:#f0f0f0}#questions th{cursor:pointer}"
            + "#questions td{font-family:monospace;font-size:.85em;max-width:28em;overflow-wrap:anywhere}"
            + ".correct{background:#e8f6e8}.wrong,.error,.missing{background:#fbeaea}img{display:block;margin:1em 0;max-width:100%}"
            + ".headline{font-size:1.2em}";
    private static final String SCRIPT = """
            (function () {
              var table = document.getElementById('questions');
              var body = table.tBodies[0];
              var text = document.getElementById('filter-text');
              var verdict = document.getElementById('filter-verdict');
              var shown = document.getElementById('shown');
              function filter() {
                var t = text.value.toLowerCase(), v = verdict.value, n = 0;
                Array.prototype.forEach.call(body.rows, function (r) {
                  var ok = (!v || r.getAttribute('data-verdict') === v) && (!t || r.textContent.toLowerCase().indexOf(t) >= 0);
                  r.style.display = ok ? '' : 'none';
                  if (ok) { n++; }
                });
                shown.textContent = n;
              }
              function sortBy(col, numeric, th) {
                var asc = th.getAttribute('data-order') !== 'asc';
                Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) { c.removeAttribute('data-order'); });
                th.setAttribute('data-order', asc ? 'asc' : 'desc');
                var rows = Array.prototype.slice.call(body.rows);
                rows.sort(function (a, b) {
                  var x = a.cells[col].textContent, y = b.cells[col].textContent;
                  var c = numeric ? (parseFloat(x) - parseFloat(y)) : x.localeCompare(y);
                  return asc ? c : -c;
                });
                rows.forEach(function (r) { body.appendChild(r); });
              }
              Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
                th.addEventListener('click', function () { sortBy(i, th.hasAttribute('data-numeric'), th); });
              });
              text.addEventListener('input', filter);
              verdict.addEventListener('change', filter);
              filter();
              document.body.setAttribute('data-report-ready', 'yes');
            })();
            """;

    public String render(EvaluationSummary s) {
        StringBuilder html = new StringBuilder();
        String title = "Evaluation: " + s.benchmark();
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>").append(escape(title))
                .append("</title>\n<style>").append(STYLE).append("</style></head><body>\n");
        html.append("<h1>").append(escape(title)).append("</h1>\n");
        html.append("<p class=\"headline\" id=\"headline\">").append(escape(Headline.of(s))).append("</p>\n");
        html.append("<p>Semantics <b>").append(escape(s.comparison())).append("</b>: ").append(escape(s.semanticsDescription()))
                .append("</p>\n<p>Predictions: <code>").append(escape(s.predictions())).append("</code></p>\n");
        if (s.mmsql() != null) {
            mmsql(html, s);
        } else {
            executionAccuracy(html, s);
            if (s.dialogues()) {
                dialogues(html, s);
            }
        }
        if (s.rqs() != null) {
            html.append("<h2>RQS (LLM judge ").append(escape(s.rqs().judgeModel())).append(")</h2>\n<table><tr><th>type</th>"
                    + "<th>turns</th><th>average RQS</th></tr>\n");
            s.rqs().byType().forEach((t, v) -> html.append("<tr><td>").append(escape(t)).append("</td><td class=\"n\">")
                    .append(s.rqs().turns().get(t)).append("</td><td class=\"n\">").append(f2(v)).append("</td></tr>\n"));
            html.append("<tr><th>overall</th><td></td><td class=\"n\">").append(f2(s.rqs().overall())).append("</td></tr></table>\n");
        }
        if (s.measuredEfficiency()) {
            html.append("<h2>Efficiency</h2>\n<table><tr><th>VES</th><th>R-VES</th></tr><tr><td class=\"n\">")
                    .append(f2(s.ves())).append("</td><td class=\"n\">").append(f2(s.rves())).append("</td></tr></table>\n");
        }
        if (s.hasTrace()) {
            latency(html, s);
        }
        if (s.hasTokens()) {
            tokens(html, s);
        }
        if (!s.goldErrors().isEmpty()) {
            html.append("<h2>Gold queries that failed (left out)</h2>\n<table><tr><th>item</th><th>database</th><th>error</th></tr>\n");
            s.goldErrors().forEach(g -> html.append("<tr><td>").append(escape(g.itemId())).append("</td><td>").append(escape(g.dbId()))
                    .append("</td><td>").append(escape(g.error())).append("</td></tr>\n"));
            html.append("</table>\n");
        }
        questions(html, s);
        html.append("<script>").append(SCRIPT).append("</script>\n</body></html>\n");
        return html.toString();
    }

    private static void executionAccuracy(StringBuilder html, EvaluationSummary s) {
        html.append("<h2>Execution accuracy</h2>\n<table><tr><th>difficulty</th><th>correct</th><th>total</th><th>EX %</th></tr>\n");
        s.exByDifficulty().forEach((level, a) -> accuracyRow(html, level, a));
        accuracyRow(html, "all", s.ex());
        html.append("</table>\n");
        if (!s.exByDifficulty().isEmpty()) {
            image(html, "EX per difficulty", ChartImages.percentBars("Execution accuracy per difficulty", "difficulty", "EX %",
                    new ArrayList<>(s.exByDifficulty().keySet()), percents(s.exByDifficulty())));
        }
    }

    private static void dialogues(StringBuilder html, EvaluationSummary s) {
        html.append("<h2>Dialogues</h2>\n<table><tr><th>metric</th><th>correct</th><th>total</th><th>%</th></tr>\n");
        accuracyRow(html, "TDEX", s.tdex());
        accuracyRow(html, "IEX", s.iex());
        html.append("</table>\n<table><tr><th>question type</th><th>TDEX %</th><th>turns</th><th>precision</th><th>recall</th><th>F1</th></tr>\n");
        for (Map.Entry<String, PrecisionRecall> e : s.typeDetection().entrySet()) {
            Accuracy t = s.tdexByType().getOrDefault(e.getKey(), Accuracy.empty());
            typeRow(html, e.getKey(), f2(t.percent()), e.getValue());
        }
        html.append("</table>\n");
        if (!s.tdexByType().isEmpty()) {
            image(html, "TDEX per question type", ChartImages.percentBars("TDEX per question type", "question type", "TDEX %",
                    new ArrayList<>(s.tdexByType().keySet()), percents(s.tdexByType())));
        }
    }

    private static void mmsql(StringBuilder html, EvaluationSummary s) {
        html.append("<h2>MMSQL</h2>\n<table><tr><th>metric</th><th>correct</th><th>total</th><th>%</th></tr>\n");
        accuracyRow(html, "TDEX (all user turns)", s.mmsql().tdex());
        accuracyRow(html, "EX (answerable in gold and prediction)", s.mmsql().ex());
        accuracyRow(html, "IEX (dialogues)", s.mmsql().iex());
        html.append("</table>\n<table><tr><th>type</th><th>TDEX %</th><th>turns</th><th>precision</th><th>recall</th><th>F1</th></tr>\n");
        s.mmsql().types().forEach((t, p) -> typeRow(html, t, "", p));
        html.append("<tr><th>average F1</th><td></td><td></td><td></td><td></td><td class=\"n\">").append(f3(s.mmsql().averageF1()))
                .append("</td></tr></table>\n");
        image(html, "MMSQL figures", ChartImages.percentBars("MMSQL", "metric", "%", List.of("TDEX", "EX", "IEX"),
                List.of(s.mmsql().tdex().percent(), s.mmsql().ex().percent(), s.mmsql().iex().percent())));
    }

    private static void latency(StringBuilder html, EvaluationSummary s) {
        html.append("<h2>Latency per stage (ms)</h2>\n<table><tr><th>stage</th><th>n</th><th>mean</th><th>p50</th><th>p90</th>"
                + "<th>p95</th><th>p99</th><th>max</th></tr>\n");
        for (Map.Entry<String, Percentiles> e : s.latencyByStage().entrySet()) {
            Percentiles p = e.getValue();
            html.append("<tr><td>").append(escape(e.getKey())).append("</td>");
            for (Object v : List.of(p.count(), f2(p.mean()), p.p50(), p.p90(), p.p95(), p.p99(), p.max())) {
                html.append("<td class=\"n\">").append(v).append("</td>");
            }
            html.append("</tr>\n");
        }
        html.append("</table>\n");
        image(html, "latency per stage", ChartImages.bars("Latency per stage (p50, ms)", "stage", "ms",
                new ArrayList<>(s.latencyByStage().keySet()), s.latencyByStage().values().stream().map(Percentiles::p50).toList()));
    }

    private static void tokens(StringBuilder html, EvaluationSummary s) {
        html.append("<h2>Tokens").append(s.hasPrices() ? " and cost" : "").append("</h2>\n<table><tr><th>prompt tokens</th>"
                + "<th>completion tokens</th><th>tokens / question</th>").append(s.hasPrices() ? "<th>cost</th><th>cost / question</th>" : "")
                .append("</tr><tr><td class=\"n\">").append(s.tokens().promptTokens()).append("</td><td class=\"n\">")
                .append(s.tokens().completionTokens()).append("</td><td class=\"n\">").append(f2(s.tokens().tokensPerQuestion())).append("</td>");
        if (s.hasPrices()) {
            html.append("<td class=\"n\">").append(String.format(Locale.ROOT, "%.4f", s.tokens().cost())).append("</td><td class=\"n\">")
                    .append(String.format(Locale.ROOT, "%.6f", s.tokens().costPerQuestion())).append("</td>");
        }
        html.append("</tr></table>\n");
        TokenHistogram histogram = TokenHistogram.of(s.tokensPerQuestion(), 12);
        image(html, "tokens per question", ChartImages.bars("Tokens per question (questions per range)",
                "tokens per question", "questions", histogram.labels(), histogram.counts()));
    }

    private static void questions(StringBuilder html, EvaluationSummary s) {
        html.append("<h2>Questions</h2>\n<p><label>Filter <input id=\"filter-text\" type=\"search\" placeholder=\"id, database, SQL, error\"></label> "
                + "<label>Verdict <select id=\"filter-verdict\"><option value=\"\">all</option>");
        s.verdicts().stream().map(QuestionVerdict::verdict).distinct().sorted()
                .forEach(v -> html.append("<option>").append(escape(v)).append("</option>"));
        html.append("</select></label> <span id=\"shown\">").append(s.verdicts().size()).append("</span> of ")
                .append(s.verdicts().size()).append(" shown; click a column header to sort.</p>\n");
        boolean typed = s.verdicts().stream().anyMatch(v -> v.type() != null);
        html.append("<table id=\"questions\"><thead><tr><th data-numeric>#</th><th>id</th><th>database</th><th>hardness</th>")
                .append(typed ? "<th>type</th><th>predicted type</th>" : "")
                .append("<th>verdict</th><th>gold</th><th>prediction</th><th>error</th></tr></thead><tbody>\n");
        int n = 0;
        for (QuestionVerdict v : s.verdicts()) {
            html.append("<tr class=\"").append(escape(v.verdict())).append("\" data-verdict=\"").append(escape(v.verdict()))
                    .append("\"><td class=\"n\">").append(n++).append("</td><td>").append(escape(v.id())).append("</td><td>")
                    .append(escape(v.dbId())).append("</td><td>").append(escape(v.difficulty())).append("</td>");
            if (typed) {
                html.append("<td>").append(escape(nullToEmpty(v.type()))).append("</td><td>")
                        .append(escape(nullToEmpty(v.predictedType()))).append("</td>");
            }
            html.append("<td>").append(escape(v.verdict())).append("</td><td>").append(escape(v.gold())).append("</td><td>")
                    .append(escape(v.prediction())).append("</td><td>").append(escape(nullToEmpty(v.error()))).append("</td></tr>\n");
        }
        html.append("</tbody></table>\n");
    }

    private static void accuracyRow(StringBuilder html, String name, Accuracy a) {
        html.append("<tr><td>").append(escape(name)).append("</td><td class=\"n\">").append(a.correct()).append("</td><td class=\"n\">")
                .append(a.total()).append("</td><td class=\"n\">").append(f2(a.percent())).append("</td></tr>\n");
    }

    private static void typeRow(StringBuilder html, String type, String tdex, PrecisionRecall p) {
        html.append("<tr><td>").append(escape(type)).append("</td><td class=\"n\">").append(tdex).append("</td><td class=\"n\">")
                .append(p.support()).append("</td><td class=\"n\">").append(f3(p.precision())).append("</td><td class=\"n\">")
                .append(f3(p.recall())).append("</td><td class=\"n\">").append(f3(p.f1())).append("</td></tr>\n");
    }

    private static void image(StringBuilder html, String alt, String base64) {
        html.append("<img alt=\"").append(escape(alt)).append("\" src=\"data:image/png;base64,").append(base64).append("\">\n");
    }

    private static List<Double> percents(Map<String, Accuracy> table) {
        return table.values().stream().map(Accuracy::percent).toList();
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    private static String f2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String f3(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    private static String escape(String s) {
        return StringEscapeUtils.escapeHtml4(s == null ? "" : s);
    }
}

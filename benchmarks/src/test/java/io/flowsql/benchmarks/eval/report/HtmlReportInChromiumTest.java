package io.flowsql.benchmarks.eval.report;

import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.benchmarks.eval.metrics.StageCost;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The HTML report opened as a user would, in Debian's headless {@code chromium} (installed by .ci/install-chromium.sh,
 * which .ci/run calls): the page's script runs to its end without a console message, and the DOM it leaves holds the
 * figures as HTML tables and the per-question table with one row per question.
 */
class HtmlReportInChromiumTest {

    private static ItemOutcome outcome(int i, boolean correct, String predError, boolean tokens) {
        BenchmarkItem item = new BenchmarkItem(String.valueOf(i), i, "concert_singer", "q" + i, "", "SELECT " + i + " <> 'x'",
                i % 2 == 0 ? "easy" : "hard", null, 0, null);
        List<StageCost> stages = tokens ? List.of(new StageCost("magsql.generate", 100 + i, 900 + 10 * i, 50)) : List.of();
        return new ItemOutcome(item, "SELECT " + i + " -- <b>not bold</b>", null, null, predError, correct, Double.NaN, stages);
    }

    private static EvaluationSummary summary(boolean tokens, double price) {
        List<ItemOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            outcomes.add(outcome(i, i % 3 != 0, i % 5 == 0 ? "no such column: x" : null, tokens));
        }
        Benchmark bench = new Benchmark("spider-dev", outcomes.stream().map(ItemOutcome::item).toList(), Path.of("target"));
        return EvaluationSummary.of(bench, "pred.sql", "spider-exec", "official Spider test-suite evaluator", outcomes, price, price);
    }

    @Test
    void thePageRunsInHeadlessChromiumWithoutConsoleMessagesAndHoldsItsTables() throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "html-chromium"));
        Path page = dir.resolve("report.html");
        Files.writeString(page, new HtmlReport().render(summary(true, 1.0)));
        Path profile = Files.createTempDirectory(dir, "profile");
        Path stderr = dir.resolve("chromium.err");
        Process chromium;
        try {
            chromium = new ProcessBuilder("chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + profile.toAbsolutePath(),
                    "--enable-logging=stderr", "--v=0", "--dump-dom", page.toAbsolutePath().toUri().toString())
                    .redirectError(stderr.toFile()).start();
        } catch (IOException e) {
            fail("Debian's chromium is needed for this test: run .ci/install-chromium.sh (" + e.getMessage() + ")");
            return;
        }
        byte[] dom;
        try {
            dom = chromium.getInputStream().readAllBytes();
            assertThat(chromium.waitFor(90, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        } finally {
            chromium.destroyForcibly();
        }
        String html = new String(dom, StandardCharsets.UTF_8);
        List<String> console = Files.readAllLines(stderr).stream().filter(l -> l.contains(":CONSOLE")).toList();
        assertThat(console).as("console messages").isEmpty();
        assertThat(html).contains("data-report-ready=\"yes\"");
        assertThat(html).contains("<table id=\"questions\">");
        assertThat(html.split("data-verdict=", -1)).hasSize(31);
        assertThat(html).contains("<span id=\"shown\">30</span>");
        // the prediction's markup is text, not markup
        assertThat(html).contains("-- &lt;b&gt;not bold&lt;/b&gt;").doesNotContain("<b>not bold</b>");
        assertThat(html).contains("scored 30 of 30 questions").contains("<h2>Tokens and cost</h2>").contains("<h2>Latency per stage (ms)</h2>");
    }

    @Test
    void sectionsWithoutDataAreLeftOut() {
        String html = new HtmlReport().render(summary(false, 0));
        assertThat(html).doesNotContain("<h2>Tokens").doesNotContain("Latency per stage").doesNotContain("<h2>Dialogues")
                .doesNotContain("<pre>").contains("<h2>Execution accuracy</h2>");
        String priced = new HtmlReport().render(summary(true, 0));
        assertThat(priced).contains("<h2>Tokens</h2>").doesNotContain("cost / question");
    }
}

package io.flowsql.benchmarks.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Two runs' report.json compared question by question. */
class ReportDiffTest {

    private static ItemOutcome outcome(String id, boolean correct, String predError) {
        BenchmarkItem item = new BenchmarkItem(id, Integer.parseInt(id), "concert_singer", "q", "", "SELECT 1", "easy", null, 0, null);
        return new ItemOutcome(item, "SELECT " + id, null, null, predError, correct, Double.NaN, List.of());
    }

    private static JsonNode report(String name, List<ItemOutcome> outcomes) throws Exception {
        Benchmark bench = new Benchmark("spider-dev", outcomes.stream().map(ItemOutcome::item).toList(), Path.of("target"));
        String json = new JsonReport().render(EvaluationSummary.of(bench, name, "spider-exec", outcomes, 0, 0));
        Path file = Files.createDirectories(Path.of("target", "diff-test", name)).resolve("report.json");
        Files.writeString(file, json);
        return ReportDiff.read(file.getParent());
    }

    @Test
    void listsEveryQuestionWhoseVerdictChanged() throws Exception {
        JsonNode before = report("a", List.of(outcome("0", true, null), outcome("1", false, null), outcome("2", false, "no such table: x"),
                outcome("3", true, null)));
        JsonNode after = report("b", List.of(outcome("0", true, null), outcome("1", true, null), outcome("2", false, null),
                outcome("4", true, null)));
        ReportDiff diff = ReportDiff.of(before, after);
        assertThat(diff.compared()).isEqualTo(3);
        assertThat(diff.changes()).extracting(ReportDiff.Change::id).containsExactly("1", "2");
        assertThat(diff.changes().get(0).gained()).isTrue();
        assertThat(diff.changes().get(1).before()).isEqualTo("error");
        assertThat(diff.changes().get(1).after()).isEqualTo("wrong");
        assertThat(diff.onlyBefore()).containsExactly("3");
        assertThat(diff.onlyAfter()).containsExactly("4");
        assertThat(diff.render()).contains("3 questions compared: 2 changed (1 now correct, 0 no longer correct, 1 other)")
                .contains("1\tconcert_singer\twrong -> correct\tSELECT 1");
    }

    @Test
    void aReportWithoutVerdictsIsRefused() throws Exception {
        Path old = Files.createDirectories(Path.of("target", "diff-test")).resolve("old.json");
        Files.writeString(old, new ObjectMapper().createObjectNode().put("benchmark", "spider-dev").toString());
        assertThatThrownBy(() -> ReportDiff.read(old)).hasMessageContaining("no per-question verdicts");
    }
}

package io.flowsql.benchmarks.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.benchmarks.eval.metrics.StageCost;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReportsTest {

    private static ItemOutcome turn(String id, String type, String gold, String predType, boolean correct, String goldError) {
        BenchmarkItem item = new BenchmarkItem(id, 0, "db", "q", "", gold, "easy", "d1", 0, type);
        return new ItemOutcome(item, "SELECT 1", predType, goldError, null, correct, Double.NaN,
                List.of(new StageCost("mmsql.detect", 100, 500, 20), new StageCost("mmsql.generate", 400, 1500, 80)));
    }

    @Test
    void allThreeReportsCarryTheFigures() throws Exception {
        List<ItemOutcome> outcomes = List.of(
                turn("1", "answerable", "SELECT 1", "answerable", true, null),
                turn("2", "answerable", "SELECT 2", "answerable", false, null),
                turn("3", "answerable", "SELECT 3", "answerable", true, null),
                turn("4", "improper", "", "improper", false, null),
                turn("5", "answerable", "SELECT ! = 1", "answerable", false, "INVALID_SQL: near \"!\""));
        Benchmark bench = new Benchmark("cosql-dev", outcomes.stream().map(ItemOutcome::item).toList(), Path.of("target"));
        EvaluationSummary s = EvaluationSummary.of(bench, "answers.jsonl", "SPIDER_TEST_SUITE", outcomes, 1.0, 4.0);

        List<Path> files = new ReportWriter().write(s, Path.of("target", "report-test"));
        String md = Files.readString(files.get(0));
        assertThat(md).contains("semantics: **SPIDER_TEST_SUITE**")
                .contains("scored 4 of 5 questions; left out: 0 without their database here, 1 gold errors")
                .contains("| **all** | 2 | 3 | 66.67 |")
                .contains("| TDEX | 3 | 4 | 75.00 |")
                .contains("| mmsql.generate | 5 | 400.00 | 400 |")
                .contains("Gold queries that failed").contains("near \"!\"");
        String html = Files.readString(files.get(1));
        assertThat(html).startsWith("<!DOCTYPE html>").contains("data:image/png;base64,iVBOR");
        assertThat(html.split("<img ", -1)).hasSize(5);
        assertThat(html).contains("<table id=\"questions\">").doesNotContain("<pre>").doesNotContain("**");
        JsonNode json = new ObjectMapper().readTree(files.get(2).toFile());
        assertThat(json.at("/ex/correct").asInt()).isEqualTo(2);
        assertThat(json.at("/ex/total").asInt()).isEqualTo(3);
        assertThat(json.at("/semantics").asText()).isEqualTo("SPIDER_TEST_SUITE");
        assertThat(json.at("/questions").size()).isEqualTo(5);
        assertThat(json.at("/questions/0/verdict").asText()).isEqualTo("correct");
        assertThat(json.at("/questions/1/verdict").asText()).isEqualTo("wrong");
        assertThat(json.at("/questions/3/verdict").asText()).isEqualTo("no-sql-owed");
        assertThat(json.at("/questions/4/verdict").asText()).isEqualTo("gold-error");
        assertThat(json.at("/questions/4/error").asText()).contains("near");
        assertThat(json.at("/gold_errors/0/item").asText()).isEqualTo("5");
        assertThat(json.at("/type_detection/improper/f1").asDouble()).isEqualTo(1.0);
        // 5 questions x (500+1500) prompt = 10000 at 1/M, 5 x (20+80) completion = 500 at 4/M
        assertThat(json.at("/tokens/prompt").asLong()).isEqualTo(10_000);
        assertThat(json.at("/tokens/cost").asDouble()).isEqualTo(10_000 / 1e6 * 1.0 + 500 / 1e6 * 4.0);
    }

    /** An answers file whose answers came from the simulated oracle: each report's headline says so, with the count. */
    @Test
    void everyReportsHeadlineSaysHowManyAnswersWereSimulatedAndInWhichMode(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        Path answers = dir.resolve("answers.jsonl");
        Files.write(answers, List.of(
                "{\"request_id\":\"1\",\"simulated\":true,\"trace\":[{\"stage\":\"g\",\"model\":\"simulated/simulated-oracle\",\"simulated\":true}]}",
                "{\"request_id\":\"2\",\"simulated\":true,\"trace\":[{\"stage\":\"g\",\"model\":\"simulated/simulated-oracle\",\"simulated\":true}]}",
                "{\"request_id\":\"3\",\"simulated\":false,\"trace\":[{\"stage\":\"g\",\"model\":\"qwen\",\"simulated\":false}]}"));
        SimulatedAnswers counted = SimulatedAnswers.read(answers);
        assertThat(counted.simulated()).isEqualTo(2);
        assertThat(counted.answers()).isEqualTo(3);
        assertThat(counted.mode()).isEqualTo("oracle");
        assertThat(SimulatedAnswers.read(Files.writeString(dir.resolve("pred.sql"), "SELECT 1\n"))).isEqualTo(SimulatedAnswers.NONE);

        List<ItemOutcome> outcomes = List.of(turn("1", "answerable", "SELECT 1", "answerable", true, null));
        Benchmark bench = new Benchmark("spider-dev", outcomes.stream().map(ItemOutcome::item).toList(), Path.of("target"));
        EvaluationSummary s = EvaluationSummary.of(bench, answers.toString(), "SPIDER_TEST_SUITE", outcomes, 0, 0)
                .withSimulation(counted);
        String expected = "SIMULATED LLM (oracle): 2 of 3 answers came from the simulator, not a real model; spider-dev";
        assertThat(Headline.of(s)).startsWith(expected);
        List<Path> files = new ReportWriter().write(s, dir.resolve("report"));
        assertThat(Files.readString(files.get(0))).contains("- **" + expected);
        assertThat(Files.readString(files.get(1))).contains("id=\"headline\">" + expected);
        JsonNode json = new ObjectMapper().readTree(files.get(2).toFile());
        assertThat(json.at("/headline").asText()).startsWith(expected);
        assertThat(json.at("/simulated_answers").asInt()).isEqualTo(2);
        assertThat(json.at("/simulated_mode").asText()).isEqualTo("oracle");
        assertThat(Headline.of(s.withSimulation(SimulatedAnswers.NONE))).startsWith("spider-dev [");
    }
}

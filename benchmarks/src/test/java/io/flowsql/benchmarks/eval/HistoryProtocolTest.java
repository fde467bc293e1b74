package io.flowsql.benchmarks.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every dialogue benchmark's report names its history protocol; one of single questions names none. */
class HistoryProtocolTest {
    private static BenchmarkItem turn(String dialogue, int index) {
        return new BenchmarkItem(dialogue + "-" + index, index, "concert_singer", "q" + index, "", "SELECT 1", null,
                dialogue, index, "answerable");
    }

    @Test
    void aDialogueBenchmarkIsToldItsProtocolAndAnUnstatedOneSaysSo() {
        Benchmark dialogues = new Benchmark("mmsql-test", List.of(turn("d0", 0), turn("d0", 1)), Path.of("."));
        Benchmark single = new Benchmark("spider-dev", List.of(turn(null, 0)), Path.of("."));
        assertThat(HistoryProtocol.parse("gold").forBenchmark(dialogues)).startsWith("gold history");
        assertThat(HistoryProtocol.parse("OWN").forBenchmark(dialogues)).startsWith("own history").contains("not comparable");
        assertThat(HistoryProtocol.parse(null).forBenchmark(dialogues)).startsWith("history protocol not stated");
        assertThat(HistoryProtocol.parse("gold").forBenchmark(single)).isNull();
        assertThatThrownBy(() -> HistoryProtocol.parse("teacher")).hasMessageContaining("--history must be gold or own");
    }
}

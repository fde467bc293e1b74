package io.flowsql.benchmarks.eval;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.opensearch.fewshot.ExampleLibrary;
import io.flowsql.agents.opensearch.fewshot.FewShotExample;
import io.flowsql.agents.opensearch.fewshot.QuestionMasker;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code flowsql-eval fewshot-library} writes a readable library from one half of Spider dev's databases. */
class FewShotLibraryCommandTest {
    @Test
    void writesTheFirstHalfOfTheDatabasesMasked(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("lib.jsonl");
        int code = new CommandLine(new EvalCli()).execute("fewshot-library", "--benchmark", "spider-dev",
                "--data", SharedData.root().toString(), "--databases", "concert_singer,pets_1", "--out", out.toString());
        assertThat(code).isZero();
        List<FewShotExample> examples = ExampleLibrary.load(out).examples();
        assertThat(examples).hasSize(45 + 42);
        assertThat(examples).extracting(FewShotExample::dbId).containsOnly("concert_singer", "pets_1");
        FewShotExample first = examples.get(0);
        assertThat(first.id()).isEqualTo("spider-dev#0");
        assertThat(first.question()).isEqualTo("How many singers do we have?");
        assertThat(first.maskedQuestion()).isEqualTo("how many " + QuestionMasker.SCHEMA + " do we have");
        assertThat(first.sql()).isEqualTo("SELECT count(*) FROM singer");
    }

    /**
     * With {@code --reasoning-simulated} every example gets a reasoning step written through the simulator over HTTP
     * (task eval.fewshot.reasoning), marked simulated with the model that wrote it; it round-trips through the file.
     */
    @Test
    void writesAReasoningPerExampleMarkedSimulated(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("lib.jsonl");
        int code = new CommandLine(new EvalCli()).execute("fewshot-library", "--benchmark", "spider-dev",
                "--data", SharedData.root().toString(), "--databases", "concert_singer", "--out", out.toString(),
                "--reasoning-simulated", "--reasoning-model", "sim-writer");
        assertThat(code).isZero();
        List<FewShotExample> examples = ExampleLibrary.load(out).examples();
        assertThat(examples).hasSize(45).allSatisfy(e -> {
            assertThat(e.reasoning()).startsWith("#reason: The question asks to show ").contains("#SQL-like: Show ");
            assertThat(e.reasoningSimulated()).isTrue();
            assertThat(e.reasoningModel()).isNotBlank();
        });
        FewShotExample french = examples.stream().filter(e -> e.sql().contains("'France'")).findFirst().orElseThrow();
        assertThat(french.reasoning()).contains("are filtering conditions").contains("'France'");
        assertThat(java.nio.file.Files.readString(out)).contains("\"reasoningSimulated\":true");
    }
}

package io.flowsql.benchmarks.eval;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.job.JobOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A local run gets the SParC/CoSQL few-shot library unless it evaluates those dialogues or was told otherwise. */
class FewShotDefaultTest {
    private static final String KEY = JobOptions.AGENT_FEWSHOT_SOURCES.key();

    @Test
    void spiderAndBirdRunsGetTheDialogueLibraryWhenItIsThere() {
        Map<String, String> options = new LinkedHashMap<>();
        String line = FewShotDefault.apply("spider-dev", SharedData.root(), options);
        assertThat(options.get(KEY).split(",")).hasSize(2).allSatisfy(f -> assertThat(Path.of(f)).isAbsolute().isRegularFile());
        assertThat(options.get(KEY)).contains("sparc_dev_SQLonly.json").contains("cosql_dev_SQLonly.json");
        assertThat(line).startsWith("few-shot library: first turns of");
        Map<String, String> bird = new LinkedHashMap<>();
        FewShotDefault.apply("bird-minidev", SharedData.root(), bird);
        assertThat(bird).containsKey(KEY);
    }

    @Test
    void dialogueBenchmarksAnExplicitChoiceAndMissingFilesGetNone(@TempDir Path empty) throws Exception {
        for (String made : new String[] {"cosql-dev", "mmsql-test"}) {
            Map<String, String> options = new LinkedHashMap<>();
            assertThat(FewShotDefault.apply(made, SharedData.root(), options)).contains("none").contains(made);
            assertThat(options).doesNotContainKey(KEY);
        }
        Map<String, String> off = new LinkedHashMap<>(Map.of(KEY, ""));
        assertThat(FewShotDefault.apply("spider-dev", SharedData.root(), off)).contains("none");
        assertThat(off).containsEntry(KEY, "");
        Map<String, String> missing = new LinkedHashMap<>();
        Files.createDirectories(empty.resolve("cosql"));
        Files.writeString(empty.resolve("cosql/sparc_dev_SQLonly.json"), "[]");
        assertThat(FewShotDefault.apply("spider-dev", empty, missing)).contains("none");
        assertThat(missing).doesNotContainKey(KEY);
    }
}

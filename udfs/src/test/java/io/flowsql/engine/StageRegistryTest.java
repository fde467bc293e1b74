package io.flowsql.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.AgentSettings;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.NamedStage;
import io.flowsql.pipeline.Strategy;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.replay.ReplayResponder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The registry is the one place a stage is declared: presets follow its order, every preset builds, every prompt
 * file belongs to one declared stage and names a task under it, the simulator answers every declared task, and no
 * main source file outside the registry names a stage.
 */
class StageRegistryTest {
    private static final Path PROJECT = Path.of(System.getProperty("user.dir")).getParent();

    @Test
    void presetsFollowTheRegistryOrder() {
        List<String> order = StageRegistry.names();
        assertThat(StageRegistry.presetNames()).containsExactly("mag-sql", "sqlfix", "opensearch", "mmsql", "full");
        for (String preset : StageRegistry.presetNames()) {
            List<String> stages = names(StageRegistry.stagesOf(preset));
            assertThat(stages.stream().map(order::indexOf).toList()).as(preset).doesNotContain(-1).isSorted();
            assertThat(stages).as(preset).startsWith("schema.retrieve").endsWith("answer.finalize", "answer.summarize");
        }
        assertThat(names(StageRegistry.stagesOf("full"))).containsExactlyElementsOf(order);
        assertThat(names(StageRegistry.stagesOf("sqlfix"))).containsExactly("schema.retrieve", "opensearch.generate", "candidates.execute",
                "sqlfix.review", "sqlfix.craft", "sqlfix.execute", "sqlfix.refine", "answer.finalize", "answer.summarize");
        assertThat(names(StageRegistry.stagesOf("mmsql"))).containsExactly("schema.retrieve", "mmsql.rewrite", "mmsql.select", "mmsql.detect",
                "mmsql.decompose", "candidates.execute", "mmsql.refine", "mmsql.readings", "answer.finalize", "answer.summarize");
        assertThat(names(StageRegistry.stagesOf("opensearch"))).containsExactly("schema.retrieve", "opensearch.fewshot",
                "opensearch.extract", "opensearch.retrieve",
                "opensearch.generate", "opensearch.adherence", "opensearch.align", "candidates.execute",
                "opensearch.correct", "opensearch.vote", "answer.finalize", "answer.summarize");
        assertThat(names(StageRegistry.stagesOf("mag-sql"))).containsExactly("schema.retrieve", "magsql.link", "magsql.decompose",
                "magsql.generate", "candidates.execute", "answer.finalize", "answer.summarize");
    }

    @Test
    void everyPresetBuildsFromAnEngineWithItsStagesInOrder() {
        Engine engine = new Engine(ScriptedLlmClient.alwaysResponds("unused"), SpiderAgentParts.EXECUTOR,
                SpiderAgentParts.CATALOG, SpiderAgentParts.VALUES);
        for (String preset : StageRegistry.presetNames()) {
            Strategy strategy = StageRegistry.build(preset, engine, AgentSettings.defaults());
            assertThat(strategy.name()).isEqualTo(preset);
            assertThat(strategy.stages().stream().map(NamedStage::name).toList()).as(preset)
                    .containsExactlyElementsOf(names(StageRegistry.stagesOf(preset)));
        }
        assertThatThrownBy(() -> StageRegistry.build("nope", engine, AgentSettings.defaults()))
                .hasMessageContaining("valid strategies: mag-sql");
    }

    @Test
    void unknownNamesListTheValidOnes() {
        assertThatThrownBy(() -> StageRegistry.stagesOf("magsql"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("magsql").hasMessageContaining("mag-sql, sqlfix, opensearch, mmsql, full");
        assertThatThrownBy(() -> StageRegistry.get("opensearch.vot"))
                .hasMessageContaining("no stage named 'opensearch.vot'").hasMessageContaining("opensearch.vote");
    }

    @Test
    void fullKeepsTheSingleChainUidsAndOtherPresetsGetTheirOwn() {
        StageDeclaration generate = StageRegistry.get("opensearch.generate");
        assertThat(generate.uid("full")).isEqualTo("stage-opensearch.generate");
        assertThat(generate.uid("sqlfix")).isEqualTo("sqlfix/stage-opensearch.generate");
        Set<String> uids = new HashSet<>();
        for (String preset : StageRegistry.presetNames()) {
            StageRegistry.stagesOf(preset).forEach(d -> assertThat(uids.add(d.uid(preset))).as(d.uid(preset)).isTrue());
        }
    }

    @Test
    void everyPromptFileBelongsToOneStageAndNamesATaskUnderIt() throws IOException {
        Path prompts = PROJECT.resolve("udfs/src/main/resources/prompts");
        Set<String> files;
        try (Stream<Path> walk = Files.walk(prompts)) {
            files = new HashSet<>(walk.filter(p -> p.toString().endsWith(".system.txt"))
                    .map(p -> prompts.relativize(p).toString().replace('\\', '/').replace(".system.txt", ""))
                    .toList());
        }
        List<String> declared = new ArrayList<>();
        for (StageDeclaration stage : StageRegistry.all()) {
            for (String base : stage.prompts()) {
                declared.add(base);
                PromptPair pair = PromptPair.load(base);
                assertThat(pair.task()).as(base).satisfiesAnyOf(
                        t -> assertThat(t).isEqualTo(stage.name()), t -> assertThat(t).startsWith(stage.name() + "."));
                assertThat(pair.reply()).as(base + " declares its reply schema").isNotNull();
            }
            if (stage.kind() != io.flowsql.pipeline.StageKind.LLM) {
                assertThat(stage.prompts()).as(stage.name() + " does not call the model").isEmpty();
            }
        }
        assertThat(declared).doesNotHaveDuplicates();
        assertThat(declared).containsExactlyInAnyOrderElementsOf(files);
    }

    /**
     * The link between the registry and the simulator, which cannot depend on udfs (udfs' tests depend on it): the
     * simulator's responders are keyed by prompt task, and the keys must be exactly the tasks of the declared stages'
     * prompts (plus the evaluation's own task). The responders a prediction replay lays over the usual ones (the
     * replay is read only when answering, so none is needed here) may only replace usual ones, never add a task.
     */
    @Test
    void theSimulatorAnswersEveryDeclaredTask() {
        Set<String> tasks = new HashSet<>();
        StageRegistry.all().forEach(s -> s.prompts().forEach(base -> tasks.add(PromptPair.load(base).task())));
        Set<String> simulated = new HashSet<>(AgentResponders.all().keySet());
        simulated.removeIf(task -> task.startsWith("eval.")); // the evaluation's own tasks (benchmarks), not a stage's
        assertThat(simulated).containsExactlyInAnyOrderElementsOf(tasks);
        assertThat(ReplayResponder.over(AgentResponders.all(), null).keySet())
                .as("tasks the prediction replay answers").containsExactlyInAnyOrderElementsOf(AgentResponders.all().keySet());
    }

    /**
     * Stage names appear as string literals only in the registry: everywhere else in the main code of every module
     * that can see the registry (udfs, job, benchmarks) and of devstack (which sees no module of ours and has no
     * business naming a stage) a stage is reached through the registry or the name the registry gave it. The files are
     * read from the source tree, so this test in udfs covers the other modules' main code too.
     * <p>
     * The simulator is the stated exception: it cannot depend on udfs (udfs' tests depend on it, and a module cycle
     * is not allowed), so its responders are keyed by the prompt tasks named in the prompt files' first lines, and
     * {@link #theSimulatorAnswersEveryDeclaredTask} ties those keys to the registry by set equality instead.
     */
    @Test
    void noMainSourceOutsideTheRegistryNamesAStage() throws IOException {
        Set<String> names = new HashSet<>(StageRegistry.names());
        Pattern literal = Pattern.compile("\"([a-z]+\\.[a-z]+)\"");
        List<String> offenders = new ArrayList<>();
        for (String module : List.of("udfs", "job", "benchmarks", "devstack")) {
            try (Stream<Path> walk = Files.walk(PROJECT.resolve(module).resolve("src/main/java"))) {
                for (Path file : walk.filter(p -> p.toString().endsWith(".java")).toList()) {
                    if (file.endsWith("StageRegistry.java")) {
                        continue;
                    }
                    String code = Files.readString(file).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
                    Matcher m = literal.matcher(code);
                    while (m.find()) {
                        if (names.contains(m.group(1))) {
                            offenders.add(PROJECT.relativize(file) + ": " + m.group());
                        }
                    }
                }
            }
        }
        assertThat(offenders).as("stage names outside the registry").isEmpty();
    }

    private static List<String> names(List<StageDeclaration> stages) {
        return stages.stream().map(StageDeclaration::name).toList();
    }
}

package io.flowsql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.common.AgentSettings;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.llm.ByStage;
import io.flowsql.llm.RequestParameters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/AGENTS.md's "Request parameters per stage" tables: per preset one row per task its stages ask with, in the
 * registry's order (a stage's own prompts, then those it borrows from another stage), whose temperature, top_p, n, max_tokens and reply format are what the code sends.
 */
class RequestParametersTableTest {
    private static final Path GUIDE = Path.of(System.getProperty("flowsql.project.dir"), "docs", "AGENTS.md");
    private static final String HEADING = "#### Request parameters: `";

    @Test
    void eachPresetsTableIsWhatTheCodeSends() throws Exception {
        Map<String, List<String>> documented = documentedRows();
        for (String preset : List.of(StageRegistry.MAG_SQL, StageRegistry.SQLFIX, StageRegistry.OPENSEARCH,
                StageRegistry.MMSQL)) {
            assertThat(documented).containsKey(preset);
            assertThat(documented.get(preset)).as("docs/AGENTS.md, request parameters of " + preset)
                    .containsExactlyElementsOf(expectedRows(preset));
        }
    }

    @Test
    void generationAndRefinementReplyBudgetsAreAtLeast1000() {
        for (StageDeclaration stage : StageRegistry.all()) {
            for (String base : stage.prompts()) {
                PromptPair pair = PromptPair.load(base);
                if (pair.reply().schema().findValue("sql") != null) {
                    assertThat(pair.reply().maxTokens()).as(base + " writes SQL").hasValueSatisfying(
                            tokens -> assertThat(tokens).isGreaterThanOrEqualTo(1000));
                }
            }
        }
    }

    @Test
    void everyTaskOfEveryStageHasADeclaredTemperature() {
        Map<String, RequestParameters> declared = StageRegistry.requestParameters();
        for (StageDeclaration stage : StageRegistry.all()) {
            for (String base : stage.prompts()) {
                String task = PromptPair.load(base).task();
                assertThat(ByStage.lookup(declared, task)).as(task).isNotNull()
                        .satisfies(p -> assertThat(p.temperature()).isNotNull());
            }
        }
    }

    /** The first six cells of each row the code determines, joined by " | ". */
    private static List<String> expectedRows(String preset) {
        Map<String, RequestParameters> declared = StageRegistry.requestParameters();
        List<String> rows = new ArrayList<>();
        for (StageDeclaration stage : StageRegistry.stagesOf(preset)) {
            List<String> asked = new ArrayList<>(stage.prompts());
            asked.addAll(StageRegistry.borrowedPrompts(stage.name())); // e.g. sqlfix.refine's per-attempt crafting
            for (String base : asked) {
                PromptPair pair = PromptPair.load(base);
                String task = pair.task();
                RequestParameters p = ByStage.lookup(declared, task);
                String temperature = p.temperature()
                        + (task.startsWith("opensearch.correct.") ? " + round/5" : "");
                int n = task.equals("opensearch.generate") ? AgentSettings.defaults().candidates : 1;
                String maxTokens = pair.reply() == null ? "default" : pair.reply().maxTokens().map(String::valueOf)
                        .orElse("default");
                rows.add(String.join(" | ", "`" + task + "`", temperature, p.topP() == null ? "–" : p.topP().toString(),
                        String.valueOf(n), maxTokens, pair.reply() == null ? "free text" : "JSON schema"));
            }
        }
        return rows;
    }

    private static Map<String, List<String>> documentedRows() throws Exception {
        Map<String, List<String>> byPreset = new LinkedHashMap<>();
        String preset = null;
        for (String line : Files.readAllLines(GUIDE)) {
            if (line.startsWith(HEADING)) {
                preset = line.substring(HEADING.length(), line.indexOf('`', HEADING.length()));
                byPreset.put(preset, new ArrayList<>());
            } else if (preset != null && line.matches("^\\| \\d+ \\| `.*")) {
                String[] cells = line.substring(2).split(" \\| ");
                byPreset.get(preset).add(String.join(" | ", List.of(cells).subList(1, 7)));
            } else if (line.startsWith("#")) {
                preset = null;
            }
        }
        return byPreset;
    }
}

package io.flowsql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.common.PromptPair;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The stage table and the preset table in docs/AGENTS.md ("Strategies") are the ones rendered from {@link StageRegistry}:
 * every stage in the registry's order with its kind, the presets it belongs to and its prompt pairs (each with the task
 * its system prompt names), and every preset with its stages in order. A declaration changed without the doc fails
 * here; the rendered Markdown is written to {@code target/} and shown in the failure, ready to paste.
 */
class StageTableTest {
    private static final Path GUIDE = Path.of(System.getProperty("flowsql.project.dir"), "docs", "AGENTS.md");
    static final String STAGES_HEADER = "| # | stage | kind | presets (besides `full`) | prompts (`prompts/<base>` → task) |";
    static final String PRESETS_HEADER = "| preset | stages (`StageRegistry.stagesOf(name)`, in order) |";

    @Test
    void theGuidesStageTableIsTheRenderedOne() throws IOException {
        assertDocumented(stageTable(), "stage-table.md");
    }

    @Test
    void theGuidesPresetTableIsTheRenderedOne() throws IOException {
        assertDocumented(presetTable(), "preset-table.md");
    }

    /** One row per stage, in the registry's order. */
    static String stageTable() {
        StringBuilder out = new StringBuilder(STAGES_HEADER).append('\n').append("|---|---|---|---|---|\n");
        int n = 0;
        for (StageDeclaration stage : StageRegistry.all()) {
            String presets = StageRegistry.presetNames().stream().filter(p -> stage.presets().contains(p))
                    .collect(Collectors.joining(", "));
            String prompts = stage.prompts().isEmpty() ? "–" : stage.prompts().stream()
                    .map(base -> "`" + base + "` → `" + PromptPair.load(base).task() + "`")
                    .collect(Collectors.joining(", "));
            out.append("| ").append(++n).append(" | `").append(stage.name()).append("` | ").append(stage.kind())
                    .append(" | ").append(presets).append(" | ").append(prompts).append(" |\n");
        }
        return out.toString();
    }

    /** One row per preset, in the order the registry lists them; {@code full} is every stage. */
    static String presetTable() {
        StringBuilder out = new StringBuilder(PRESETS_HEADER).append('\n').append("|---|---|\n");
        for (String preset : StageRegistry.presetNames()) {
            String stages = StageRegistry.FULL.equals(preset)
                    ? "all " + StageRegistry.all().size() + ", in the registry's order (the table above)"
                    : StageRegistry.stagesOf(preset).stream().map(StageDeclaration::name).collect(Collectors.joining(" → "));
            out.append("| `").append(preset).append("` | ").append(stages).append(" |\n");
        }
        return out.toString();
    }

    /** Compares the table that starts with {@code rendered}'s header line in the guide (up to its last row) with it. */
    private static void assertDocumented(String rendered, String file) throws IOException {
        List<String> lines = Files.readAllLines(GUIDE);
        int start = lines.indexOf(rendered.lines().findFirst().orElseThrow());
        int end = Math.max(start, 0);
        while (start >= 0 && end < lines.size() && lines.get(end).startsWith("|")) {
            end++;
        }
        String documented = start < 0 ? "" : String.join("\n", lines.subList(start, end)) + "\n";
        if (!documented.equals(rendered)) {
            Path fresh = Path.of("target", file).toAbsolutePath();
            Files.writeString(fresh, rendered);
            assertThat(documented).as("docs/AGENTS.md's table differs from the one rendered from StageRegistry; the "
                    + "rendered one is in " + fresh + " and below: paste it into the guide").isEqualTo(rendered);
        }
    }
}

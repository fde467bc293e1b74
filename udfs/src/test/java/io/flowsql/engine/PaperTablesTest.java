package io.flowsql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/AGENTS.md's per-paper tables ("The four designs beside their authors' code") name, in their "ours" column,
 * exactly the stages of their preset in StageRegistry: a stage renamed, added to a preset or dropped from it fails here.
 */
class PaperTablesTest {
    private static final Path GUIDE = Path.of(System.getProperty("flowsql.project.dir"), "docs", "AGENTS.md");
    private static final Pattern HEADING = Pattern.compile("^#### .*\\(`([a-z-]+)`\\)\\s*$");
    private static final Pattern STAGE = Pattern.compile("`([a-z]+\\.[a-z.]+)`");

    @Test
    void eachPapersTableNamesExactlyItsPresetsStages() throws Exception {
        Map<String, Set<String>> named = new LinkedHashMap<>();
        String preset = null;
        for (String line : Files.readAllLines(GUIDE)) {
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                preset = heading.group(1);
                named.put(preset, new LinkedHashSet<>());
            } else if (preset != null && line.startsWith("| ") && !line.startsWith("| step")) {
                String[] cells = line.split("(?<!\\\\)\\|");
                if (cells.length > 4) {
                    Matcher stage = STAGE.matcher(cells[4]);
                    while (stage.find()) {
                        named.get(preset).add(stage.group(1));
                    }
                }
            } else if (line.startsWith("## ") || line.startsWith("### ")) {
                preset = null;
            }
        }
        assertThat(named.keySet()).containsExactlyInAnyOrder(StageRegistry.OPENSEARCH, StageRegistry.MAG_SQL,
                StageRegistry.MMSQL);
        for (Map.Entry<String, Set<String>> table : named.entrySet()) {
            List<String> stages = StageRegistry.stagesOf(table.getKey()).stream().map(StageDeclaration::name).toList();
            // a task named beside its stage ("task `opensearch.extract.order`") must be one of a preset stage's tasks
            Set<String> tasks = new LinkedHashSet<>(table.getValue());
            tasks.removeAll(stages);
            assertThat(tasks).as(table.getKey() + ": names that are no stage must be a stage's task")
                    .allSatisfy(task -> assertThat(stages).anySatisfy(stage -> assertThat(task).startsWith(stage + ".")));
            table.getValue().removeAll(tasks);
            assertThat(table.getValue()).as(table.getKey() + "'s table names its preset's stages, all of them")
                    .containsExactlyInAnyOrderElementsOf(stages);
        }
    }
}

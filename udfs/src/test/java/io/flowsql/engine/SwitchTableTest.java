package io.flowsql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/AGENTS.md's table of per-question behaviour switches lists exactly {@link StageSwitches}, in its order. */
class SwitchTableTest {
    private static final Path GUIDE = Path.of(System.getProperty("flowsql.project.dir"), "docs", "AGENTS.md");
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z]+\\.[a-z]+\\.[a-z-]+)` \\|");

    @Test
    void theGuidesSwitchTableIsTheRegistrysList() throws Exception {
        List<String> documented = new ArrayList<>();
        for (String line : Files.readAllLines(GUIDE)) {
            Matcher row = ROW.matcher(line);
            if (row.find()) {
                documented.add(row.group(1));
            }
        }
        assertThat(documented).containsExactlyElementsOf(StageSwitches.names());
        assertThat(StageSwitches.names()).allSatisfy(name -> assertThat(StageSwitches.effect(name)).isNotBlank());
    }
}

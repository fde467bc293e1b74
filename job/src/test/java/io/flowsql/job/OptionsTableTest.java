package io.flowsql.job;

import io.flowsql.config.OptionFamily;

import org.apache.flink.configuration.ConfigOption;
import org.junit.jupiter.api.Test;

import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The options table in docs/OPERATIONS.md is the one generated from the ConfigOptions, and every option is described. */
class OptionsTableTest {
    private static final Path GUIDE = Path.of(System.getProperty("flowsql.project.dir"), "docs", "OPERATIONS.md");

    @Test
    void theGuidesTableIsTheGeneratedOne() throws Exception {
        String generated = OptionsTable.markdown();
        List<String> lines = Files.readAllLines(GUIDE);
        int start = lines.indexOf(OptionsTable.HEADER.lines().findFirst().orElseThrow());
        int end = Math.max(start, 0);
        while (start >= 0 && end < lines.size() && lines.get(end).startsWith("|")) {
            end++;
        }
        String documented = start < 0 ? "" : String.join("\n", lines.subList(start, end)) + "\n";
        if (!documented.equals(generated)) {
            Path fresh = Path.of("target", "options-table.md").toAbsolutePath();
            Files.writeString(fresh, generated);
            assertThat(documented).as("docs/OPERATIONS.md's options table differs from --print-options; the generated "
                    + "one is in " + fresh + ": paste it into the guide").isEqualTo(generated);
        }
    }

    @Test
    void everyOptionHasAUniqueKeyADefaultAndADescription() {
        Set<String> keys = new HashSet<>();
        for (ConfigOption<?> option : JobOptions.all()) {
            assertThat(keys.add(option.key())).as("%s declared once", option.key()).isTrue();
            assertThat(option.hasDefaultValue()).as("%s has a default", option.key()).isTrue();
            assertThat(OptionsTable.describe(option.description())).as("%s is described", option.key()).isNotBlank();
        }
        for (OptionFamily<?> family : JobOptions.families()) {
            assertThat(family.description()).as("%s is described", family.documentedKey()).isNotBlank();
            assertThat(keys).as("no option is also a member of %s", family.prefix()).noneMatch(family::contains);
        }
        assertThat(JobOptions.all()).contains(JobOptions.PARALLELISM, JobOptions.STAGE_TIMEOUT, JobOptions.AGENT_ALIGN_NULL_COMPARISON);
    }

    @Test
    void printOptionsPrintsTheTableAndABadOptionStopsTheJobBeforeItStartsNamingTheKey() {
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            assertThat(new CommandLine(new FlowSqlJob()).execute("--print-options")).isZero();
        } finally {
            System.setOut(stdout);
        }
        assertThat(printed.toString(StandardCharsets.UTF_8)).isEqualTo(OptionsTable.markdown());

        StringWriter errors = new StringWriter();
        CommandLine job = new CommandLine(new FlowSqlJob()).setErr(new PrintWriter(errors));
        assertThat(job.execute("--local", "-D", "stage.timeout=soon")).isNotZero();
        assertThat(errors.toString()).contains("stage.timeout: cannot read 'soon'");
    }

    @Test
    void theTableShowsDefaultsAsFlinkWritesThemAndEnumsWithTheirChoices() {
        String table = OptionsTable.markdown();
        assertThat(table).contains("| `job.checkpoint-interval` | `500 ms` | duration |")
                .contains("| `llm.cache-mode` | `read-write` | one of read-write, read-only, off |")
                .contains("| `dialogue.feedback-isolation` | `read_committed` | one of read_uncommitted, read_committed |")
                .contains("| `stage.timeout.<stage>` |  | duration |");
    }
}

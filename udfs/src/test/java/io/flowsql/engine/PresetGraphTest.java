package io.flowsql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.pipeline.StageKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The stages' part of the job graph drawn in docs/ARCHITECTURE.md (from {@code route-by-preset} down to the
 * {@code union}) is the one rendered from {@link StageRegistry}: one column per preset with its stages in order, an
 * execution stage marked {@code *} (it is three operators), and {@code full} as every stage. A preset or stage changed
 * without the drawing fails here; the rendered block is written to {@code target/} and shown in the failure.
 */
class PresetGraphTest {
    private static final Path ARCHITECTURE = Path.of(System.getProperty("flowsql.project.dir"), "docs", "ARCHITECTURE.md");
    private static final int INDENT = 1;
    private static final int COLUMN = 21;
    /** Where the drawing above comes down into {@code route-by-preset} and the union goes on below. */
    private static final int TRUNK = 53;

    @Test
    void theArchitectureGraphShowsEachPresetsStagesFromTheRegistry() throws IOException {
        String rendered = presetColumns();
        List<String> lines = Files.readAllLines(ARCHITECTURE);
        List<String> expected = rendered.lines().toList();
        int start = lines.indexOf(expected.get(0));
        String documented = start < 0 || start + expected.size() > lines.size() ? ""
                : String.join("\n", lines.subList(start, start + expected.size())) + "\n";
        if (!documented.equals(rendered)) {
            Path fresh = Path.of("target", "preset-graph.txt").toAbsolutePath();
            Files.writeString(fresh, rendered);
            assertThat(documented).as("docs/ARCHITECTURE.md's preset columns differ from the ones rendered from "
                    + "StageRegistry; the rendered block is in " + fresh + " and below: paste it into the graph")
                    .isEqualTo(rendered);
        }
    }

    @Test
    void noStageNameSpillsIntoTheNextColumn() {
        List<String> rows = presetColumns().lines().toList();
        List<String> presets = StageRegistry.presetNames();
        for (int p = 0; p < presets.size() - 1; p++) {
            List<String> column = new ArrayList<>();
            for (String row : rows.subList(3, rows.size() - 2)) {
                String cell = cell(row, p);
                if (!cell.isEmpty()) {
                    column.add(cell.replace("*", ""));
                }
            }
            assertThat(column).as(presets.get(p)).containsExactlyElementsOf(
                    StageRegistry.stagesOf(presets.get(p)).stream().map(StageDeclaration::name).toList());
        }
    }

    private static String cell(String row, int column) {
        int from = INDENT + column * COLUMN;
        return row.length() <= from ? "" : row.substring(from, Math.min(row.length(), from + COLUMN)).strip();
    }

    /** The drawing's lines from {@code route-by-preset} to {@code union}, each preset a column, {@code full} last. */
    static String presetColumns() {
        List<String> presets = StageRegistry.presetNames();
        int lane = INDENT + presets.size() * COLUMN + 2;
        List<List<String>> columns = new ArrayList<>();
        for (String preset : presets) {
            List<String> cells = new ArrayList<>();
            if (StageRegistry.FULL.equals(preset)) {
                cells.addAll(List.of("all " + StageRegistry.all().size() + " stages, in", "the registry's order",
                        "(uids stage-<name>)"));
            } else {
                StageRegistry.stagesOf(preset).forEach(s ->
                        cells.add(s.name() + (s.kind() == StageKind.EXECUTE_CANDIDATES ? "*" : "")));
            }
            columns.add(cells);
        }
        List<String> out = new ArrayList<>();
        String route = " ".repeat(TRUNK - 7) + "route-by-preset ──(preset not served: error_kind unserved)──";
        out.add(route + "─".repeat(lane - route.length()) + "┐");
        out.add(lane(boxLine('┌', '┬', '┐', '┴', presets.size()), lane));
        StringBuilder header = new StringBuilder();
        for (int p = 0; p < presets.size(); p++) {
            header.append(" ".repeat(INDENT + p * COLUMN - header.length())).append("▼ ").append(presets.get(p));
        }
        out.add(lane(header.toString(), lane));
        int depth = columns.stream().mapToInt(List::size).max().orElse(0);
        for (int r = 0; r < depth; r++) {
            StringBuilder row = new StringBuilder();
            for (int p = 0; p < columns.size(); p++) {
                if (r < columns.get(p).size()) {
                    row.append(" ".repeat(INDENT + p * COLUMN - row.length())).append(columns.get(p).get(r));
                }
            }
            out.add(lane(row.toString(), lane));
        }
        out.add(lane(boxLine('└', '┴', '┘', '┬', presets.size()), lane));
        String union = " ".repeat(TRUNK) + "▼ union ◄";
        out.add(union + "─".repeat(lane - union.length()) + "┘");
        return String.join("\n", out) + "\n";
    }

    /** A rule across the columns' arrows: {@code first}, {@code middle} at each inner column, {@code last}, {@code trunk} where the trunk crosses it. */
    private static String boxLine(char first, char middle, char last, char trunk, int columns) {
        char[] line = (" ".repeat(INDENT) + "─".repeat((columns - 1) * COLUMN + 1)).toCharArray();
        for (int p = 0; p < columns; p++) {
            line[INDENT + p * COLUMN] = p == 0 ? first : p == columns - 1 ? last : middle;
        }
        line[TRUNK] = trunk;
        return new String(line);
    }

    private static String lane(String text, int lane) {
        return text + " ".repeat(Math.max(1, lane - text.length())) + "│";
    }
}

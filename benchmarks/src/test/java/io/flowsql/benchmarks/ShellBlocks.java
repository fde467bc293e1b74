package io.flowsql.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The shell blocks of a Markdown file with the marker written on the line before each ({@code <!-- readme-test: check -->}). */
final class ShellBlocks {

    /** One fenced shell block: where it starts (1-based line of its fence), its marker ({@code null} when none) and its text. */
    record Block(int line, String marker, String text) {}

    private static final Pattern MARKER = Pattern.compile("^<!--\\s*readme-test:\\s*([a-z-]+)\\s*-->\\s*$");
    private static final Pattern SHELL_FENCE = Pattern.compile("^```(bash|sh|shell)\\s*$");

    private ShellBlocks() {}

    static List<Block> of(String markdown) {
        String[] lines = markdown.split("\n", -1);
        List<Block> blocks = new ArrayList<>();
        boolean inFence = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (inFence) {
                if (line.startsWith("```")) inFence = false;
                continue;
            }
            if (!line.startsWith("```")) continue;
            if (!SHELL_FENCE.matcher(line).matches()) {
                inFence = true;
                continue;
            }
            String marker = null;
            if (i > 0) {
                Matcher m = MARKER.matcher(lines[i - 1]);
                if (m.matches()) marker = m.group(1);
            }
            StringBuilder text = new StringBuilder();
            int j = i + 1;
            for (; j < lines.length && !lines[j].startsWith("```"); j++) text.append(lines[j]).append('\n');
            blocks.add(new Block(i + 1, marker, text.toString()));
            i = j;
        }
        return blocks;
    }
}

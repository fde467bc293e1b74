package io.flowsql.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's shell blocks cannot rot: each carries a marker, {@code <!-- readme-test: check -->} on the line before
 * its fence, and every command in it is checked against the repository as it is (scripts, subcommands, flags,
 * environment variables, tools: {@link CommandCheck}) and the block must parse as bash. The blocks start brokers,
 * jobs and benchmarks that take minutes, so none is run here. The blocks a user runs carry
 * {@code <!-- readme-test: run -->} (or {@code serve}, for one that runs until stopped) instead, checked the same way:
 * CI runs them as written with {@code .ci/readme-blocks.sh}, after the tests.
 */
class ReadmeCommandsTest {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final List<String> DOCUMENTS = List.of("README.md");
    static final java.util.Set<String> MARKERS = java.util.Set.of("check", "run", "serve");

    @Test
    void everyShellBlockIsMarkedAndEveryCommandInItExists() throws IOException {
        CommandCheck check = new CommandCheck(ROOT);
        List<String> problems = new ArrayList<>();
        int commands = 0;
        for (String document : DOCUMENTS) {
            Path file = ROOT.resolve(document);
            if (!Files.isRegularFile(file)) continue;
            for (ShellBlocks.Block block : ShellBlocks.of(Files.readString(file))) {
                String where = document + ":" + block.line();
                if (!MARKERS.contains(block.marker())) {
                    problems.add(where + ": a shell block without <!-- readme-test: check --> (or run) on the line before it");
                    continue;
                }
                for (List<String> command : ShellCommands.of(block.text())) {
                    commands++;
                    for (String problem : check.problems(command)) problems.add(where + ": " + problem);
                }
                String syntax = bashSyntax(block.text());
                if (!syntax.isEmpty()) problems.add(where + ": bash -n: " + syntax);
            }
        }
        assertThat(problems).isEmpty();
        assertThat(commands).as("commands checked in " + DOCUMENTS).isGreaterThan(30);
    }

    /**
     * The blocks marked run or serve are the ones {@code .ci/readme-blocks.sh --list} prints, in the README's order
     * (a serve block flagged so), and CI calls that script: the quickstart, the ask/watch block against a quickstart
     * that stays up, the console with the feedback block beside it, the evaluations.
     */
    @Test
    void theRunMarkedBlocksAreTheOnesCiRuns() throws IOException, InterruptedException {
        List<String> marked = new ArrayList<>();
        for (ShellBlocks.Block block : ShellBlocks.of(Files.readString(ROOT.resolve("README.md")))) {
            if ("run".equals(block.marker())) marked.add(block.text().strip());
            if ("serve".equals(block.marker())) marked.add("serve:" + block.text().strip());
        }
        assertThat(marked).hasSizeGreaterThanOrEqualTo(2);
        assertThat(marked.get(0)).startsWith("deploy/quickstart.sh");
        assertThat(marked).anyMatch(text -> text.contains("deploy/flowsql.sh watch --ids-file"));
        assertThat(marked).anyMatch(text -> text.startsWith("serve:deploy/console.sh"));
        assertThat(marked).anyMatch(text -> text.contains("deploy/flowsql.sh feedback"));
        assertThat(marked).anyMatch(text -> text.contains("deploy/eval.sh run"));

        Process list = new ProcessBuilder("bash", ROOT.resolve(".ci/readme-blocks.sh").toString(), "--list")
                .redirectErrorStream(true).start();
        String printed = new String(list.getInputStream().readAllBytes());
        assertThat(list.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(list.exitValue()).as(printed).isZero();
        List<String> listed = new ArrayList<>();
        Matcher head = Pattern.compile("(?m)^@@ \\d+( serve)?\\n").matcher(printed);
        List<Integer> starts = new ArrayList<>();
        List<String> kinds = new ArrayList<>();
        while (head.find()) {
            starts.add(head.end());
            kinds.add(head.group(1) == null ? "" : "serve:");
        }
        for (int i = 0; i < starts.size(); i++) {
            int end = i + 1 < starts.size() ? printed.lastIndexOf("@@ ", starts.get(i + 1) - 1) : printed.length();
            listed.add(kinds.get(i) + printed.substring(starts.get(i), end).strip());
        }
        assertThat(listed).isEqualTo(marked);
        assertThat(Files.readString(ROOT.resolve(".ci/run"))).contains(".ci/readme-blocks.sh");
    }

    /** A command quoted in the text ({@code `deploy/kafka-stop.sh --clean`}) is held to the same checks as a block's. */
    @Test
    void everyCommandQuotedInTheTextExists() throws IOException {
        CommandCheck check = new CommandCheck(ROOT);
        List<String> problems = new ArrayList<>();
        int commands = 0;
        for (String document : DOCUMENTS) {
            Matcher span = INLINE.matcher(Files.readString(ROOT.resolve(document)));
            while (span.find()) {
                String text = span.group(1).strip();
                if (!INLINE_COMMAND.matcher(text).matches()) continue;
                // "knowledge add|list|retract" names alternatives: check the first
                List<List<String>> parsed = ShellCommands.of(ALTERNATIVES.matcher(text).replaceAll("$1"));
                commands++;
                for (List<String> command : parsed) {
                    for (String problem : check.problems(command)) problems.add(document + ": `" + text + "`: " + problem);
                }
            }
        }
        assertThat(problems).isEmpty();
        assertThat(commands).as("commands quoted in " + DOCUMENTS).isGreaterThan(10);
    }

    private static final Pattern INLINE = Pattern.compile("`([^`\\n]+)`");
    private static final Pattern INLINE_COMMAND = Pattern.compile("^(?:[A-Z_][A-Z0-9_]*=\\S+\\s+)*(?:deploy|\\.ci)/[\\w.-]+(?:\\s.*)?$");
    private static final Pattern ALTERNATIVES = Pattern.compile("\\b([\\w-]+)(?:\\|[\\w-]+)+");

    /** bash's own parse of the block (bash -n: reads, runs nothing); empty when it parses. */
    private static String bashSyntax(String block) throws IOException {
        Path file = Files.createTempFile("readme-block", ".sh");
        try {
            Files.writeString(file, block);
            Process bash = new ProcessBuilder("bash", "-n", file.toString()).redirectErrorStream(true).start();
            try {
                if (!bash.waitFor(10, TimeUnit.SECONDS)) {
                    bash.destroyForcibly();
                    return "did not finish in 10 s";
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            return bash.exitValue() == 0 ? "" : new String(bash.getInputStream().readAllBytes()).strip();
        } finally {
            Files.deleteIfExists(file);
        }
    }
}

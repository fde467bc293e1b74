package io.flowsql.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command line of the project (CLI, evaluation, benchmarks, console, devstack) prints its help as written.
 * picocli formats each description with {@link String#format}; a bare {@code %} (as in "within 10 % and") fails that,
 * and picocli then prints "[picocli WARN] Could not format ..." on standard error, once per use of the text, before
 * the help and before every run of the command.
 */
class HelpTextsTest {

    @Test
    void everyCommandsHelpPrintsWithoutWarnings() {
        List<Class<?>> commands = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.flowsql").stream()
                .filter(c -> c.isAnnotatedWith(CommandLine.Command.class))
                .<Class<?>>map(JavaClass::reflect)
                .toList();
        assertThat(commands).as("the project's commands").hasSizeGreaterThan(15);
        List<String> warned = new ArrayList<>();
        for (Class<?> command : commands) {
            String warnings = warningsOf(command);
            if (!warnings.isEmpty()) {
                warned.add(command.getSimpleName() + ": " + warnings);
            }
        }
        assertThat(warned).as("help texts picocli cannot format (write %% for a percent sign)").isEmpty();
    }

    @Test
    void aBarePercentSignIsCaught() {
        assertThat(warningsOf(Planted.class)).contains("[picocli WARN]", "within 10 % and");
        assertThat(warningsOf(Escaped.class)).isEmpty();
    }

    @CommandLine.Command(name = "planted")
    static final class Planted {
        @CommandLine.Option(names = "--rate", description = "agree within 10 % and the JIT (default ${DEFAULT-VALUE})")
        int rate = 1;
    }

    @CommandLine.Command(name = "escaped")
    static final class Escaped {
        @CommandLine.Option(names = "--rate", description = "agree within 10 %% and the JIT (default ${DEFAULT-VALUE})")
        int rate = 1;
    }

    /** What picocli writes to standard error while it renders the help of the command and of its subcommands. */
    private static String warningsOf(Class<?> command) {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream stderr = System.err;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            render(new CommandLine(command));
        } finally {
            System.setErr(stderr);
        }
        return captured.toString(StandardCharsets.UTF_8).lines()
                .filter(line -> line.contains("[picocli WARN]"))
                .reduce("", (a, b) -> a + b + "\n");
    }

    private static void render(CommandLine command) {
        command.getUsageMessage();
        command.getSubcommands().values().forEach(HelpTextsTest::render);
    }
}

package io.flowsql.sql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Counts the main source files outside the engine profiles ({@code io/flowsql/sql/engine/**}) that branch on a specific
 * engine ({@code engine == DatabaseEngine.POSTGRESQL}, {@code case DUCKDB ->}), prints them, and fails when one is
 * found: engine differences belong in a profile (a method on {@link EngineProfile}). The enum itself is exempt (it
 * names its profiles). The count is 0; any branch fails.
 */
class EngineBranchesTest {

    private static final Pattern BRANCH = Pattern.compile(
            "(==|!=)\\s*DatabaseEngine\\.(SQLITE|POSTGRESQL|DUCKDB|MARIADB)\\b|DatabaseEngine\\.(SQLITE|POSTGRESQL|DUCKDB|MARIADB)\\s*(==|!=)"
                    + "|case\\s+(SQLITE|POSTGRESQL|DUCKDB|MARIADB)\\b|(==|!=)\\s*(SQLITE|POSTGRESQL|DUCKDB|MARIADB)\\b");

    @Test
    void noNewFileBranchesOnASpecificEngine() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        List<String> branching;
        try (Stream<Path> files = Files.walk(root, 12)) {
            branching = files.filter(f -> f.toString().endsWith(".java") && f.toString().contains("/src/main/java/"))
                    .filter(f -> !f.toString().contains("/io/flowsql/sql/engine/"))
                    .filter(f -> !f.toString().endsWith("/io/flowsql/sql/DatabaseEngine.java"))
                    .filter(f -> !f.toString().contains("/target/") && !f.toString().contains("/node_modules/"))
                    .filter(EngineBranchesTest::branches)
                    .map(f -> root.relativize(f).toString()).sorted().toList();
        }
        System.out.println("main source files outside the engine profiles that branch on a specific engine: "
                + branching.size() + " " + branching);
        assertThat(branching).as("files branching on an engine (move the difference into its profile)")
                .isEmpty();
    }

    private static boolean branches(Path file) {
        try {
            return BRANCH.matcher(Files.readString(file)).find();
        } catch (IOException e) {
            return false;
        }
    }
}

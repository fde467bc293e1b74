package io.flowsql.sql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Counts the main source files outside the engine profiles ({@code io/flowsql/sql/engine/**}) that branch on a specific
 * engine ({@code engine == DatabaseEngine.POSTGRESQL}, {@code case DUCKDB ->}), prints them, and fails when one is
 * added: engine differences belong in a profile. The enum itself is exempt (it names its profiles). The files listed
 * in {@link #NOT_YET_MOVED} still branch (the job's validator, an alignment rule and the benchmarks);
 * the count goes down as they move, never up.
 */
class EngineBranchesTest {

    private static final Pattern BRANCH = Pattern.compile(
            "(==|!=)\\s*DatabaseEngine\\.(SQLITE|POSTGRESQL|DUCKDB|MARIADB)\\b|DatabaseEngine\\.(SQLITE|POSTGRESQL|DUCKDB|MARIADB)\\s*(==|!=)"
                    + "|case\\s+(SQLITE|POSTGRESQL|DUCKDB|MARIADB)\\b|(==|!=)\\s*(SQLITE|POSTGRESQL|DUCKDB|MARIADB)\\b");

    static final Set<String> NOT_YET_MOVED = Set.of(
            "udfs/src/main/java/io/flowsql/agents/opensearch/align/DialectAlignment.java",
            "job/src/main/java/io/flowsql/job/JobConfigValidator.java",
            "benchmarks/src/main/java/io/flowsql/benchmarks/eval/target/TargetDatabases.java",
            "benchmarks/src/main/java/io/flowsql/benchmarks/eval/TargetChoice.java",
            "benchmarks/src/main/java/io/flowsql/benchmarks/db/DialectGapBenchmark.java");

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
                .isSubsetOf(NOT_YET_MOVED);
    }

    private static boolean branches(Path file) {
        try {
            return BRANCH.matcher(Files.readString(file)).find();
        } catch (IOException e) {
            return false;
        }
    }
}

package io.flowsql;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Tests live in the module of the code they test: every package of a module's tests is a package of its main code
 * (or a parent of one, for tests across its packages). A test of udfs' Flink functions kept in the job module, say,
 * fails here.
 */
class TestPlacementTest {
    private static final List<String> MODULES = List.of("testsupport", "simulator", "config", "udfs", "devstack", "job", "console", "benchmarks");

    @Test
    void everyTestPackageIsAPackageOfItsOwnModule() throws IOException {
        Path root = Path.of(System.getProperty("flowsql.project.dir"));
        List<String> misplaced = new ArrayList<>();
        for (String module : MODULES) {
            Set<String> main = packages(root.resolve(module).resolve("src/main/java"));
            assertThat(main).as(module + " main packages").isNotEmpty();
            for (String tested : packages(root.resolve(module).resolve("src/test/java"))) {
                if (main.stream().noneMatch(p -> p.equals(tested) || p.startsWith(tested + "."))) {
                    misplaced.add(module + ": " + tested);
                }
            }
        }
        assertThat(misplaced).as("test packages with no main code of theirs in the same module").isEmpty();
    }

    /** The packages that hold at least one .java file under a source root. */
    private static Set<String> packages(Path sources) throws IOException {
        if (!Files.isDirectory(sources)) {
            return Set.of();
        }
        try (Stream<Path> files = Files.walk(sources)) {
            return files.filter(f -> f.toString().endsWith(".java"))
                    .map(f -> sources.relativize(f.getParent()).toString().replace(f.getFileSystem().getSeparator(), "."))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }
}

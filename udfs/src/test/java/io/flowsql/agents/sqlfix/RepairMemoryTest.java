package io.flowsql.agents.sqlfix;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The repair memory survives a new instance (its file) and returns the most similar repair first. */
class RepairMemoryTest {

    @Test
    void persistsAcrossInstancesAndRetrievesTheMostSimilar(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("memory/repairs.jsonl");
        RepairMemory first = RepairMemory.open(file);
        first.add(new RepairRecord("concert_singer", "How many singers are older than 40?",
                "SELECT count(*) FROM singer WHERE age < 40", "SELECT count(*) FROM singer WHERE age > 40", "reversed comparison"));
        first.add(new RepairRecord("pets_1", "What is the average weight of dogs?",
                "SELECT avg(weight) FROM pets", "SELECT avg(weight) FROM pets WHERE pettype = 'dog'", "missing filter"));
        assertThat(Files.readAllLines(file)).hasSize(2);

        RepairMemory reopened = RepairMemory.open(file);
        assertThat(reopened.size()).isEqualTo(2);
        assertThat(reopened.similar("How many singers are older than 30?", "SELECT count(*) FROM singer WHERE age < 30", 2))
                .first().satisfies(r -> assertThat(r.whatWasWrong()).isEqualTo("reversed comparison"));
        assertThat(reopened.similar("average weight of the dogs", "SELECT avg(weight) FROM pets", 1))
                .singleElement().satisfies(r -> assertThat(r.dbId()).isEqualTo("pets_1"));
        assertThat(reopened.similar("zzz qqq", "xyz", 3)).isEmpty();
    }

    @Test
    void concurrentAppendsAreAllKept(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("repairs.jsonl");
        RepairMemory memory = RepairMemory.open(file);
        IntStream.range(0, 50).parallel().forEach(i -> memory.add(new RepairRecord("db", "q" + i, "w", "f", "x")));
        assertThat(memory.size()).isEqualTo(50);
        assertThat(RepairMemory.open(file).size()).isEqualTo(50);
    }

    @Test
    void aFrozenMemoryUsesWhatWasLoadedAndLearnsNothing(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("repairs.jsonl");
        RepairMemory.open(file).add(new RepairRecord("db", "how many singers", "SELECT 1", "SELECT 2", "x"));
        RepairMemory frozen = RepairMemory.frozen(file);
        assertThat(frozen.size()).isEqualTo(1);
        frozen.add(new RepairRecord("db", "how many pets", "SELECT 3", "SELECT 4", "y"));
        assertThat(frozen.size()).isEqualTo(1);
        assertThat(frozen.similar("how many pets", "SELECT 3", 5)).noneMatch(r -> r.question().contains("pets"));
        assertThat(Files.readAllLines(file)).hasSize(1);
        assertThat(RepairMemory.frozen(null).size()).isZero();
    }
}

package io.flowsql.benchmarks.eval.load;

import io.flowsql.sql.catalog.DatabaseLocator;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BirdLoaderTest {

    @Test
    void readsTheOfficialLayoutGeneratedIntoTarget() throws Exception {
        Path folder = BirdFixture.create(Path.of("target", "bird-fixture"));
        Benchmark bird = new BirdLoader().load(folder);

        assertThat(bird.name()).isEqualTo("bird-dev");
        assertThat(bird.items()).extracting(BenchmarkItem::id).containsExactly("0", "1", "2");
        BenchmarkItem first = bird.items().get(0);
        assertThat(first.dbId()).isEqualTo("toy_shop");
        assertThat(first.evidence()).isEqualTo("paid refers to status = 'paid'");
        assertThat(first.goldSql()).isEqualTo("SELECT SUM(amount) FROM orders WHERE customer = 'Ann' AND status = 'paid'");
        assertThat(bird.items()).extracting(BenchmarkItem::difficulty).containsExactly("simple", "moderate", "challenging");
        assertThat(bird.runnableItems()).extracting(BenchmarkItem::id).containsExactly("0", "1");

        DatabaseLocator locator = new DatabaseLocator(List.of(folder.resolve("dev_databases")), List.of(folder.resolve("dev_tables.json")));
        assertThat(locator.sqliteFile("toy_shop")).contains(bird.databaseFile("toy_shop").toAbsolutePath().normalize());
        assertThat(locator.descriptionFolder("toy_shop")).isPresent();
    }
}

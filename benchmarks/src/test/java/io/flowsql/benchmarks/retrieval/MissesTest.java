package io.flowsql.benchmarks.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.benchmarks.retrieval.RetrievalMeasure.Asked;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.TableSchema;
import io.flowsql.sql.retrieve.RetrievedSchema;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MissesTest {

    private static RetrievedSchema kept(List<String> schemas, String... tables) {
        List<TableSchema> t = java.util.Arrays.stream(tables).map(n -> new TableSchema(n, "", List.of(), List.of())).toList();
        return new RetrievedSchema(new DatabaseSchema("w", t, List.of()), 100, 1000, 10, true, List.of(), schemas);
    }

    @Test
    void aMissIsClassedByWhereItsSchemaWasRoutedAndWhetherTheTableWasNamed() {
        Misses misses = new Misses(5);
        Asked other = new Asked("q1", "How many singers are there?", null, "concert", "SELECT count(*) FROM singer", true);
        Misses.Miss wrong = misses.add(other, "concert", List.of("singer"), Set.of("music.song"), kept(List.of("music", "concert"), "music.song"));
        assertThat(wrong.why()).isEqualTo(Misses.WRONG_SCHEMA);
        assertThat(wrong.ownRank()).isEqualTo(1);
        assertThat(wrong.missing()).containsExactly("singer");

        Asked named = new Asked("q2", "Which stadiums hosted concerts?", null, "concert", "", false);
        assertThat(misses.add(named, "concert", List.of("stadium", "concert"), Set.of("concert.concert"),
                kept(List.of("concert"), "concert.concert")).why()).isEqualTo(Misses.TRIMMED);

        Asked unnamed = new Asked("q3", "Which venues hosted concerts?", null, "concert", "", false);
        assertThat(misses.add(unnamed, "concert", List.of("stadium", "concert"), Set.of("concert.concert"),
                kept(List.of("concert"), "concert.concert")).why()).isEqualTo(Misses.RANKED_LOW);

        assertThat(misses.add(unnamed, "concert", List.of("concert"), Set.of("concert.concert"),
                kept(List.of("concert"), "concert.concert"))).as("nothing missed").isNull();
    }
}

package io.flowsql.feedback;

import io.flowsql.pipeline.LiveFeedback;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LiveLibraryTest {
    private static final LiveLibraryLimits LIMITS = new LiveLibraryLimits(3, 1_000_000, Duration.ofDays(1), 8, 3);

    static LiveEntry example(String id, String db, String question, String sql, long at) {
        LiveEntry e = new LiveEntry();
        e.feedbackId = id;
        e.kind = LiveEntry.EXAMPLE;
        e.dbId = db;
        e.question = question;
        e.sql = sql;
        e.timestampMillis = at;
        return e;
    }

    static LiveEntry retraction(String id, String target, long at) {
        LiveEntry e = new LiveEntry();
        e.feedbackId = id;
        e.kind = LiveEntry.RETRACTION;
        e.retracts = target;
        e.timestampMillis = at;
        return e;
    }

    @Test
    void theSameFeedbackAppliedTwiceChangesNothingAndTheFirstOfAnIdWins() {
        LiveLibrary library = new LiveLibrary(LIMITS);
        assertThat(library.apply(example("a", "db1", "How many singers?", "SELECT count(*) FROM singer", 1))).containsExactly("a");
        Map<String, LiveEntry> once = new TreeMap<>(library.entries());
        assertThat(library.apply(example("a", "db1", "How many singers?", "SELECT count(*) FROM singer", 1))).isEmpty();
        assertThat(library.apply(example("a", "db1", "Something else", "SELECT 1", 2))).isEmpty();
        assertThat(library.entries()).isEqualTo(once);
    }

    @Test
    void aRetractionBlocksItsTargetWhicheverComesFirst() {
        LiveLibrary before = new LiveLibrary(LIMITS);
        before.apply(example("a", "db1", "q", "SELECT 1", 1));
        before.apply(retraction("r", "a", 2));
        LiveLibrary after = new LiveLibrary(LIMITS);
        after.apply(retraction("r", "a", 2));
        after.apply(example("a", "db1", "q", "SELECT 1", 1));
        assertThat(before.examplesOf("db1")).isEmpty();
        assertThat(after.examplesOf("db1")).isEmpty();
        assertThat(before.apply(retraction("r", "a", 2))).as("a repeated retraction").isEmpty();
    }

    @Test
    void eachDatabaseKeepsItsNewestEntriesAndAnEvictedIdIsNotLearnedAgain() {
        LiveLibrary library = new LiveLibrary(LIMITS);
        for (int i = 0; i < 5; i++) {
            library.apply(example("e" + i, "db1", "question " + i, "SELECT " + i, 100 + i));
        }
        library.apply(example("other", "db2", "question", "SELECT 9", 50));
        assertThat(library.examplesOf("db1")).extracting(e -> e.feedbackId).containsExactly("e2", "e3", "e4");
        assertThat(library.examplesOf("db2")).extracting(e -> e.feedbackId).containsExactly("other");
        assertThat(library.apply(example("e0", "db1", "question 0", "SELECT 0", 100))).isEmpty();
        long tombstones = library.entries().values().stream().filter(e -> LiveEntry.TOMBSTONE.equals(e.kind)).count();
        assertThat(tombstones).isEqualTo(2);
    }

    @Test
    void bytesAndAgeBoundTheLibraryToo() {
        LiveLibrary small = new LiveLibrary(new LiveLibraryLimits(100, 400, Duration.ofDays(1), 8, 3));
        small.apply(example("a", "db1", "x".repeat(100), "SELECT 1", 1));
        small.apply(example("b", "db1", "y".repeat(100), "SELECT 2", 2));
        assertThat(small.examplesOf("db1")).extracting(e -> e.feedbackId).containsExactly("b");

        LiveLibrary aging = new LiveLibrary(LIMITS);
        aging.apply(example("old", "db1", "q", "SELECT 1", 0));
        aging.apply(example("new", "db1", "q2", "SELECT 2", Duration.ofDays(2).toMillis()));
        assertThat(aging.entries()).containsOnlyKeys("new");
        assertThat(aging.select("db1", "q2", Duration.ofDays(4).toMillis()).examples()).as("too old to use at that time").isEmpty();
    }

    @Test
    void aRequestCarriesOnlyItsOwnDatabasesMostAlikeExamplesAndCorrectionsAsRepairs() {
        LiveLibrary library = new LiveLibrary(new LiveLibraryLimits(100, 1_000_000, Duration.ofDays(1), 2, 3));
        library.apply(example("s1", "db1", "How many singers are there?", "SELECT count(*) FROM singer", 1));
        library.apply(example("s2", "db1", "Name the stadiums", "SELECT name FROM stadium", 2));
        library.apply(example("s3", "db1", "How many singers are French?", "SELECT count(*) FROM singer WHERE country='France'", 3));
        library.apply(example("p1", "db2", "How many singers are there?", "SELECT count(*) FROM pets", 4));
        LiveEntry fix = example("c1", "db1", "How many concerts?", "SELECT count(*) FROM concert", 5);
        fix.kind = LiveEntry.CORRECTION;
        fix.wrongSql = "SELECT count(*) FROM singer";
        library.apply(fix);

        LiveLibrary.Selection chosen = library.select("db1", "How many singers do we have?", 10);
        assertThat(chosen.examples()).extracting(LiveFeedback.Example::feedbackId).containsExactly("s1", "s3");
        assertThat(chosen.repairs()).extracting(LiveFeedback.Repair::feedbackId).containsExactly("c1");
        assertThat(chosen.repairs().get(0).wrongSql()).isEqualTo("SELECT count(*) FROM singer");
        assertThat(library.select("db3", "How many singers?", 10).examples()).isEmpty();
    }

    @Test
    void aRestoredLibraryIsTheSameLibrary() {
        LiveLibrary library = new LiveLibrary(LIMITS);
        library.apply(example("a", "db1", "q", "SELECT 1", 1));
        library.apply(retraction("r", "zz", 2));
        LiveLibrary restored = LiveLibrary.restore(LIMITS, new TreeMap<>(library.entries()).entrySet());
        assertThat(restored.entries()).isEqualTo(library.entries());
        assertThat(restored.apply(example("a", "db1", "q", "SELECT 1", 1))).isEmpty();
        assertThat(restored.examplesOf("db1")).extracting(e -> e.feedbackId).isEqualTo(List.of("a"));
    }
}

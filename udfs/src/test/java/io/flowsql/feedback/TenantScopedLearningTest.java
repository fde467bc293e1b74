package io.flowsql.feedback;

import io.flowsql.access.DataDoors;
import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.access.AccessPolicies;
import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.pipeline.LiveFeedback;
import io.flowsql.sql.engine.DatabaseEngine;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * What the job learns stays inside what each tenant may read, and a feedback record's own timestamp cannot move the
 * library's clock past wall-clock time: tenant {@code team} may read {@code singer} of {@code concert_singer} only,
 * {@code admin} the whole database (real Spider SQLite file for the checker).
 */
class TenantScopedLearningTest {
    private static final String DB = "concert_singer";
    private static final AccessPolicies POLICIES = AccessPolicies.fromOptions(Map.of(
            "team.databases", DB, "team.tables." + DB, "singer", "admin.databases", DB), "");
    private static final LiveLibraryLimits LIMITS = new LiveLibraryLimits(10, 1_000_000, Duration.ofDays(1), 8, 3);
    private static final long NOW = 1_800_000_000_000L;

    private static LiveEntry example(String id, String tenant, String sql, long at) {
        LiveEntry e = LiveLibraryTest.example(id, DB, "How many singers are there?", sql, at);
        e.tenant = tenant;
        return e;
    }

    @Test
    void aFutureDatedRecordChangesNothingAndCannotAgeTheLibraryOut() {
        LiveLibrary library = new LiveLibrary(LIMITS, () -> NOW);
        library.apply(example("a", "admin", "SELECT count(*) FROM singer", NOW - 60_000));
        library.apply(example("b", "admin", "SELECT name FROM singer", NOW - 30_000));
        Map<String, LiveEntry> before = new TreeMap<>(library.entries());
        long tenYears = NOW + Duration.ofDays(3650).toMillis();
        assertThat(library.apply(example("future", "admin", "SELECT 1", tenYears))).isEmpty();
        assertThat(library.apply(LiveLibraryTest.retraction("r", "a", tenYears))).as("a future retraction").isEmpty();
        assertThat(library.entries()).isEqualTo(before);
        assertThat(library.apply(example("c", "admin", "SELECT age FROM singer", NOW))).containsExactly("c");
        assertThat(library.select(DB, "How many singers?", NOW).examples()).extracting(LiveFeedback.Example::feedbackId)
                .containsExactlyInAnyOrder("a", "b", "c");

        Map<String, LiveEntry> stored = new TreeMap<>(library.entries());
        stored.put("forged", example("forged", "admin", "SELECT 1", tenYears));
        LiveLibrary restored = LiveLibrary.restore(LIMITS, stored.entrySet(), () -> NOW);
        restored.apply(example("d", "admin", "SELECT 2", NOW));
        assertThat(restored.examplesOf(DB)).as("a restore takes no clock from a future entry")
                .extracting(e -> e.feedbackId).contains("a", "b", "c", "d");

        assertThat(FeedbackChecker.futureStamp(NOW + Duration.ofMinutes(10).toMillis(), NOW)).isPresent();
        assertThat(FeedbackChecker.futureStamp(NOW + Duration.ofMinutes(1).toMillis(), NOW)).isEmpty();
    }

    @Test
    void aTenantIsShownOnlyEntriesWhoseSqlItMayRead() {
        LiveLibrary library = new LiveLibrary(LIMITS, () -> NOW);
        library.apply(example("hidden", "admin", "SELECT count(*) FROM stadium", NOW));
        library.apply(example("cte", "admin", "SELECT * FROM (WITH stadium AS (SELECT 1) SELECT * FROM singer) a, stadium", NOW));
        library.apply(example("open", "admin", "SELECT count(*) FROM singer", NOW));
        LiveEntry repair = example("repair", "admin", "SELECT count(*) FROM singer", NOW);
        repair.kind = LiveEntry.CORRECTION;
        repair.wrongSql = "SELECT count(*) FROM stadium";
        library.apply(repair);
        library.apply(example("own", "team", "SELECT name FROM singer", NOW));
        LiveVisibility visibility = new LiveVisibility(POLICIES, db -> DatabaseEngine.SQLITE);

        LiveLibrary.Selection team = library.select(DB, "How many singers?", NOW, visibility.forAsker("team", DB));
        assertThat(team.examples()).extracting(LiveFeedback.Example::feedbackId).containsExactlyInAnyOrder("open", "own");
        assertThat(team.repairs()).isEmpty();
        LiveLibrary.Selection admin = library.select(DB, "How many singers?", NOW, visibility.forAsker("admin", DB));
        assertThat(admin.examples()).extracting(LiveFeedback.Example::feedbackId)
                .containsExactlyInAnyOrder("hidden", "cte", "open", "repair", "own");
    }

    @Test
    void feedbackSqlIsCheckedForItsSendersTenant() {
        FeedbackChecker checker = new FeedbackChecker(new DataDoors(SpiderAgentParts.EXECUTOR, null, POLICIES));
        assertThat(checker.refusal(DB, "team", "SELECT count(*) FROM stadium")).get().asString()
                .contains("table stadium is not available");
        assertThat(checker.refusal(DB, "team", "SELECT name FROM sqlite_master")).isPresent();
        assertThat(checker.refusal(DB, "team", "SELECT count(*) FROM singer")).isEmpty();
        assertThat(checker.refusal(DB, "admin", "SELECT count(*) FROM stadium")).isEmpty();
        assertThat(checker.refusal(DB, null, "SELECT count(*) FROM singer")).as("no tenant under a policy").isPresent();
        assertThat(new FeedbackChecker(DataDoors.open(SpiderAgentParts.EXECUTOR, null)).refusal(DB, "SELECT count(*) FROM stadium")).isEmpty();
    }
}

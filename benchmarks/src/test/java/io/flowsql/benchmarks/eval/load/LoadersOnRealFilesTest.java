package io.flowsql.benchmarks.eval.load;

import io.flowsql.benchmarks.eval.SharedData;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class LoadersOnRealFilesTest {
    private final BenchmarkLoaders loaders = new BenchmarkLoaders(SharedData.root());

    @Test
    void spiderDevHas1034QuestionsOf972Runnable() {
        Benchmark spider = loaders.load("spider-dev", null);
        assertThat(spider.items()).hasSize(1034);
        assertThat(spider.runnableItems()).hasSize(972);
        BenchmarkItem first = spider.items().get(0);
        assertThat(first.dbId()).isEqualTo("concert_singer");
        assertThat(first.goldSql()).isEqualTo("SELECT count(*) FROM singer");
        assertThat(first.difficulty()).isEqualTo("easy");
        assertThat(spider.items()).noneMatch(i -> i.difficulty().equals(SpiderHardness.UNKNOWN));
    }

    @Test
    void spiderDevHardnessMatchesTheOfficialSplit() {
        // Spider's evaluator puts dev into 248 easy, 446 medium, 174 hard and 166 extra.
        Map<String, Long> byLevel = loaders.load("spider-dev", null).items().stream()
                .collect(Collectors.groupingBy(BenchmarkItem::difficulty, Collectors.counting()));
        assertThat(byLevel).containsExactlyInAnyOrderEntriesOf(Map.of("easy", 248L, "medium", 446L, "hard", 174L, "extra", 166L));
    }

    @Test
    void cosqlDevHas282TypedDialogues() {
        Benchmark cosql = loaders.load("cosql-dev", null);
        assertThat(cosql.items().stream().map(BenchmarkItem::dialogueId).distinct()).hasSize(282);
        assertThat(cosql.items()).hasSize(1457);
        Map<String, Long> byType = cosql.items().stream()
                .collect(Collectors.groupingBy(BenchmarkItem::questionType, Collectors.counting()));
        assertThat(byType).containsEntry("improper", 287L).containsEntry("unanswerable", 22L).containsEntry("ambiguous", 95L);
        BenchmarkItem second = cosql.items().get(1);
        assertThat(second.dialogueId()).isEqualTo("d0");
        assertThat(second.turnIndex()).isEqualTo(1);
        assertThat(second.question()).isEqualTo("Which models are the most popular?");
        assertThat(second.goldSql()).startsWith("SELECT T1.model FROM MODEL_LIST");
        BenchmarkItem thanks = cosql.items().get(4);
        assertThat(thanks.questionType()).isEqualTo("improper");
        assertThat(thanks.owesSql()).isFalse();
        assertThat(thanks.difficulty()).isEqualTo("unknown");
        // SQL turns get Spider's hardness levels, and every level occurs
        assertThat(cosql.items().stream().filter(BenchmarkItem::owesSql).map(BenchmarkItem::difficulty).distinct())
                .contains("easy", "medium", "hard", "extra");
    }

    @Test
    void birdMiniDevLoadsWithEvidenceAndDifficultyButNoDatabases() {
        Benchmark bird = loaders.load("bird-minidev", null);
        assertThat(bird.items()).hasSize(500);
        assertThat(bird.items().stream().map(BenchmarkItem::id).distinct()).hasSize(500);
        BenchmarkItem q = bird.items().get(0);
        assertThat(q.dbId()).isEqualTo("debit_card_specializing");
        assertThat(q.difficulty()).isEqualTo("simple");
        assertThat(q.evidence()).startsWith("ratio of customers who pay in EUR");
        assertThat(q.goldSql()).startsWith("SELECT CAST(SUM(IIF(Currency = 'EUR'");
        assertThat(bird.items().stream().collect(Collectors.groupingBy(BenchmarkItem::difficulty, Collectors.counting())))
                .containsExactlyInAnyOrderEntriesOf(Map.of("simple", 148L, "moderate", 250L, "challenging", 102L));
        assertThat(bird.runnableItems()).isEmpty();
    }
}

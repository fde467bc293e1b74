package io.flowsql.job;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.QuestionEvent;
import io.flowsql.job.JournalRuns.Kill;
import io.flowsql.job.JournalRuns.Run;
import io.flowsql.simulator.FreshDraws;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Never ask the model twice. The same 500 questions (preset mmsql: two model calls each, question detection
 * and SQL generation) run twice through the production job on a real broker and MiniCluster with the stage
 * journal, against the simulator in fresh-draw mode (see {@link JournalRuns}), as two jobs at the same time:
 * <ol>
 *   <li>with the stage journal and no failure: the baseline number of model calls;</li>
 *   <li>with the journal, and a task killed twice (a map after the topology throws when it first meets the
 *       answers of q-150 and q-350): exactly 500 answers; model calls = baseline + at most the calls that were
 *       in flight at the kills; every replayed question (an answer with journal hits) answers with SQL the model
 *       gave before the kill;</li>
 * </ol>
 * {@code JournalTokensBenchmark} runs the same schedule without the journal for the token comparison.
 */
class JournalRecoveryITCase {
    private static final int QUESTIONS = 500;
    private static final Set<String> KILL_ON = Set.of("q-150", "q-350");

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster(4);

    @Test
    void replayedQuestionsKeepTheirDecisionsAndCostNoCalls() throws Exception {
        List<QuestionEvent> questions = SpiderQuestions.cycled(JournalRuns.sharedData(), QUESTIONS, "mmsql");
        GoldSqlOracle oracle = JournalRuns.oracle();

        // Both jobs at once on the MiniCluster (own topics, simulator and journal each): half the wall time.
        CompletableFuture<Run> baselineRun = CompletableFuture.supplyAsync(
                () -> JournalRuns.runUnchecked(KAFKA.bootstrapServers(), "baseline", questions, oracle, true, Set.of()));
        Run journaled = JournalRuns.run(KAFKA.bootstrapServers(), "journaled", questions, oracle, true, KILL_ON);
        Run baseline = baselineRun.get();
        JournalRuns.print(List.of(baseline, journaled), KILL_ON);

        assertThat(baseline.journalHits()).as("nothing is replayed without a failure").isZero();
        assertThat(baseline.journal().keys()).as("every call of the baseline is journaled once")
                .hasSize((int) baseline.calls());

        // Exactly one answer per question.
        assertThat(journaled.answers()).hasSize(QUESTIONS);
        assertThat(journaled.answers().stream().map(a -> a.requestId).collect(Collectors.toSet()))
                .containsExactlyInAnyOrderElementsOf(questions.stream().map(q -> q.requestId).toList());
        assertThat(journaled.answers()).filteredOn(a -> "answered".equals(a.status)).as("the oracle answers them")
                .hasSizeGreaterThan(QUESTIONS * 9 / 10);
        assertThat(journaled.kills()).as("both kills happened").hasSize(2);

        // Calls: those of a failure-free run, plus at most the calls that were in flight at each kill.
        long inFlightAtKills = journaled.kills().stream().mapToLong(k -> journaled.inFlightAt(k)).sum();
        System.out.printf("  model calls in flight at the kills: %d%n", inFlightAtKills);
        assertThat(journaled.calls()).as("calls with two kills vs. without (in flight at the kills: %d)", inFlightAtKills)
                .isBetween(baseline.calls(), baseline.calls() + inFlightAtKills);
        assertThat(journaled.journal().keys()).as("the same calls are journaled as without failures")
                .hasSize(baseline.journal().keys().size());

        // Replayed questions answer with what the model decided before the kill. A call that was in flight at a kill
        // may still complete afterwards (the killed task's request had already been sent) and be journaled then; the
        // restored request re-uses that reply too. Those are the only replayed answers not journaled before the kill.
        List<AnswerEvent> replayed = journaled.answers().stream().filter(a -> JournalRuns.hits(a) > 0).toList();
        long lastKill = journaled.kills().stream().mapToLong(Kill::atMillis).max().orElseThrow();
        List<String> decidedBeforeKill = new ArrayList<>();
        List<String> decidedAfterKill = new ArrayList<>();
        // An answer shows its decision by the draw numbers in its SQL (an agent that rewrites the query without them,
        // e.g. a refiner that keeps the gold form, leaves nothing to compare: those are counted, not checked).
        List<AnswerEvent> withDraws = replayed.stream().filter(a -> !FreshDraws.drawsIn(a.sql).isEmpty()).toList();
        assertThat(withDraws.size()).as("replayed answers whose SQL shows its draw").isGreaterThan(replayed.size() / 2);
        for (AnswerEvent a : withDraws) {
            List<Long> used = FreshDraws.drawsIn(a.sql);
            (journaled.journal().drawsOf(a.requestId, lastKill).containsAll(used) ? decidedBeforeKill : decidedAfterKill)
                    .add(a.requestId);
        }
        System.out.printf("  replayed questions: %d answered with replies journaled before the last kill, %d with replies "
                + "of stages finished after it%n", decidedBeforeKill.size(), decidedAfterKill.size());
        assertThat(decidedBeforeKill).as("some questions were processed again after a kill and found their calls journaled")
                .isNotEmpty();
        // A replayed question whose SQL comes from after the last kill re-used its earlier stages from the journal and
        // asked the model for the stages it had not finished: legitimate. That no finished stage was decided twice is
        // what the conflict bound below checks.
        for (AnswerEvent a : journaled.answers()) {
            assertThat(journaled.journal().drawsOf(a.requestId, Long.MAX_VALUE)).as("every answer comes from a journaled reply")
                    .containsAll(FreshDraws.drawsIn(a.sql));
        }
        // A key journaled twice with different replies: only a call in flight at a kill that completed after the
        // restored request had asked again (both are journaled; the first one is the decision from then on).
        assertThat((long) journaled.journal().conflicts().size()).as("keys journaled twice: %s", journaled.journal().conflicts())
                .isLessThanOrEqualTo(inFlightAtKills);

        // Retention: committed answers released their requests' entries.
        assertThat(journaled.journal().tombstones()).as("tombstones of committed requests").isNotEmpty();
    }
}

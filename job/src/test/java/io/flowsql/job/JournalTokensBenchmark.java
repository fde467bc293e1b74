package io.flowsql.job;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.QuestionEvent;
import io.flowsql.job.JournalRuns.Run;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Set;

/**
 * Benchmark (not part of the build's tests; run it with
 * {@code mvn -B -pl job -am test -Dtest=JournalTokensBenchmark -Dsurefire.failIfNoSpecifiedTests=false}): tokens the
 * model is asked for with and without the stage journal, for the same failure schedule as
 * {@link JournalRecoveryITCase} (500 mmsql questions, a task killed at the answers of q-150 and q-350), next to
 * a failure-free run. Prints the figures.
 */
class JournalTokensBenchmark {
    private static final int QUESTIONS = Integer.getInteger("journal.bench.questions", 500);
    private static final Set<String> KILL_ON = Set.of("q-" + QUESTIONS * 3 / 10, "q-" + QUESTIONS * 7 / 10);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster();

    @Test
    void tokensWithAndWithoutTheJournal() throws Exception {
        List<QuestionEvent> questions = SpiderQuestions.cycled(JournalRuns.sharedData(), QUESTIONS, "mmsql");
        GoldSqlOracle oracle = JournalRuns.oracle();
        String bootstrap = KAFKA.bootstrapServers();
        Run failureFree = JournalRuns.run(bootstrap, "no-failure", questions, oracle, true, Set.of());
        Run withJournal = JournalRuns.run(bootstrap, "killed-with-journal", questions, oracle, true, KILL_ON);
        Run withoutJournal = JournalRuns.run(bootstrap, "killed-without-journal", questions, oracle, false, KILL_ON);
        JournalRuns.print(List.of(failureFree, withJournal, withoutJournal), KILL_ON);
        System.out.printf("  extra tokens for the failures: with the journal %d, without %d%n",
                withJournal.tokens() - failureFree.tokens(), withoutJournal.tokens() - failureFree.tokens());
    }
}

package io.flowsql.job;

import io.flowsql.devstack.LocalKafkaCluster;
import io.flowsql.devstack.TransactionCoordinators;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.QuestionEvent;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once through broker faults on a three-node cluster (replication 3, two in sync required): while questions
 * flow through the job, the broker that coordinates the job's transactions and leads answers partitions is killed
 * with SIGKILL and started again, then all three are restarted one after another. A read_committed reader still sees
 * exactly one answer per question (none lost, none doubled), and the time from the kill to the first answer to a
 * question sent after it is printed.
 */
class BrokerFailoverITCase {
    private static final int BATCH = 80;

    @TempDir
    static Path clusterDir;
    static LocalKafkaCluster kafka;

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster();

    @BeforeAll
    static void startCluster() {
        kafka = LocalKafkaCluster.start(clusterDir.resolve("kafka"));
        kafka.createTopics(JobTopics.specs(2));
    }

    @AfterAll
    static void stopCluster() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void killingTheCoordinatorsBrokerAndARollingRestartLoseAndDoubleNothing() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        List<QuestionEvent> questions = SpiderQuestions.cycled(sharedData, 3 * BATCH, "opensearch");
        List<QuestionEvent> beforeKill = questions.subList(0, BATCH);
        List<QuestionEvent> afterKill = questions.subList(BATCH, 2 * BATCH);
        List<QuestionEvent> duringRolling = questions.subList(2 * BATCH, 3 * BATCH);

        try (OracleLlm llm = OracleLlm.start(sharedData);
                AnswerArrivals arrivals = new AnswerArrivals(kafka.bootstrapServers(), JobTopics.ANSWERS)) {
            JobTopics topics = new JobTopics(kafka.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(
                    JobOptions.CHECKPOINT_INTERVAL.key(), "500ms"));
            List<AnswerEvent> answers;
            try (JobCluster.RunningJob job = JobCluster.job(config).restartOnFailure(20).start("broker-failover")) {
                topics.sendQuestions(beforeKill);
                arrivals.awaitDistinct(BATCH / 4, Duration.ofSeconds(90));

                int victim = coordinatorAndLeader();
                long killedAt = System.nanoTime();
                kafka.kill(victim);
                topics.sendQuestions(afterKill);
                long recovered = arrivals.awaitAnyOf(ids(afterKill), Duration.ofSeconds(90));
                System.out.printf("broker fault: node %d killed (SIGKILL); first answer to a question sent after the"
                        + " kill %d ms later%n", victim, TimeUnit.NANOSECONDS.toMillis(recovered - killedAt));
                long restartAt = System.nanoTime();
                kafka.restart(victim);
                System.out.printf("broker fault: node %d back and registered after %d ms%n", victim,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restartAt));

                topics.sendQuestions(duringRolling);
                for (int n = 1; n <= LocalKafkaCluster.SIZE; n++) {
                    kafka.awaitFullyReplicated(Duration.ofSeconds(60));
                    long stoppedAt = System.nanoTime();
                    kafka.stop(n);
                    kafka.restart(n);
                    System.out.printf("rolling restart: node %d stopped and back in %d ms%n", n,
                            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt));
                }
                answers = topics.committedAnswers(questions.size(), Duration.ofSeconds(120), Duration.ofSeconds(3));
            }

            Map<String, Long> perRequest = answers.stream()
                    .collect(Collectors.groupingBy(a -> a.requestId, Collectors.counting()));
            assertThat(perRequest.keySet()).as("none lost").containsExactlyInAnyOrderElementsOf(ids(questions));
            assertThat(perRequest).as("none doubled").allSatisfy((id, count) -> assertThat(count).as(id).isEqualTo(1));
            assertThat(answers).filteredOn(a -> "answered".equals(a.status)).as("the oracle answers most of them")
                    .hasSizeGreaterThan(questions.size() * 9 / 10);
        }
    }

    private static List<String> ids(List<QuestionEvent> questions) {
        return questions.stream().map(q -> q.requestId).toList();
    }

    /**
     * The node to kill: the one coordinating most of the job's open transactions, ties broken by how many answers
     * partitions it leads (the coordinator of the answers sink's transactional ids is the fault the issue names).
     */
    private static int coordinatorAndLeader() throws Exception {
        TransactionCoordinators.Busiest busiest = TransactionCoordinators.busiest(kafka.bootstrapServers(), "flowsql-answers",
                JobTopics.ANSWERS);
        System.out.printf("broker fault: answers transactions %s; score per node (10 per transaction coordinated,"
                + " 1 per answers partition led) %s%n", busiest.transactions(), busiest.score());
        assertThat(busiest.transactions()).as("the answers sink writes in transactions").isNotEmpty();
        return busiest.node();
    }
}

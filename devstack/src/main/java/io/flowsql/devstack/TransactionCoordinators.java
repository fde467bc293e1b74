package io.flowsql.devstack;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartitionInfo;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Which broker to kill to hit a job's exactly-once writes hardest: the one coordinating most of its open transactions
 * (found with {@code Admin.listTransactions} and {@code describeTransactions(...).coordinatorId()}; all of its
 * transactional ids when none is open at that moment), ties broken by how many partitions of its output topic it
 * leads. Used by the broker failover test and the soak.
 */
public final class TransactionCoordinators {

    /**
     * The chosen node, the transactional ids scored (the open ones, or all), and each node's score (10 per transaction it coordinates, 1 per
     * partition of the topic it leads).
     */
    public record Busiest(int node, List<String> transactions, Map<Integer, Integer> score) {}

    private static final Set<TransactionState> OPEN =
            Set.of(TransactionState.ONGOING, TransactionState.PREPARE_COMMIT, TransactionState.PREPARE_ABORT);

    private TransactionCoordinators() {}

    /** The busiest node for the transactions whose id starts with {@code transactionalIdPrefix} and {@code topic}. */
    public static Busiest busiest(String bootstrapServers, String transactionalIdPrefix, String topic)
            throws ExecutionException, TimeoutException, InterruptedException {
        try (Admin admin = LocalKafkaBroker.admin(bootstrapServers)) {
            List<TransactionListing> all = admin.listTransactions().all().get(30, TimeUnit.SECONDS).stream()
                    .filter(t -> t.transactionalId().startsWith(transactionalIdPrefix)).toList();
            List<TransactionListing> open = all.stream().filter(t -> OPEN.contains(t.state())).toList();
            List<String> transactions = (open.isEmpty() ? all : open).stream().map(TransactionListing::transactionalId)
                    .sorted().toList();
            Map<Integer, Integer> score = new TreeMap<>();
            if (!transactions.isEmpty()) {
                for (TransactionDescription d : admin.describeTransactions(transactions).all().get(30, TimeUnit.SECONDS).values()) {
                    score.merge(d.coordinatorId(), 10, Integer::sum);
                }
            }
            for (TopicPartitionInfo partition : admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(topic).partitions()) {
                if (partition.leader() != null) {
                    score.merge(partition.leader().id(), 1, Integer::sum);
                }
            }
            int node = score.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                    .orElseThrow(() -> new IllegalStateException("no coordinator nor leader for " + topic));
            return new Busiest(node, transactions, score);
        }
    }
}

package io.flowsql.job.pacing;

import io.flowsql.config.kafka.KafkaClientFactory;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The sum of the end offsets of a few topics, read with Kafka's admin client, every call bounded by a timeout. Writes,
 * transaction markers and new partitions all move the sum; reads do not. A read that fails or does not finish in time
 * throws, with the broker's reason.
 */
final class TopicEndOffsets implements AutoCloseable {
    private final Admin admin;
    private final List<String> topics;
    private final Duration timeout;
    private List<TopicPartition> partitions = List.of();

    TopicEndOffsets(KafkaClientFactory kafka, List<String> topics, Duration timeout) {
        this.admin = kafka.admin(Map.of(AdminClientConfig.CLIENT_ID_CONFIG, "flowsql-idle-signal",
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(timeout.toMillis()),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Long.toString(timeout.toMillis())));
        this.topics = List.copyOf(topics);
        this.timeout = timeout;
    }

    OptionalLong sum() {
        try {
            if (partitions.isEmpty()) {
                partitions = describe();
            }
            Map<TopicPartition, OffsetSpec> request = new HashMap<>();
            partitions.forEach(p -> request.put(p, OffsetSpec.latest()));
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
                    admin.listOffsets(request).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            // the partition count is part of the sum, so a topic that grows partitions counts as a change
            return OptionalLong.of(ends.values().stream().mapToLong(ListOffsetsResult.ListOffsetsResultInfo::offset).sum()
                    + partitions.size());
        } catch (ExecutionException | TimeoutException e) {
            partitions = List.of(); // described again next time (a topic created or changed meanwhile)
            throw new IllegalStateException(e instanceof ExecutionException ? String.valueOf(e.getCause()) : e.toString(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OptionalLong.empty();
        }
    }

    /** The partitions of the watched topics that exist (a topic the job does not use, e.g. no feedback, is skipped). */
    private List<TopicPartition> describe() throws ExecutionException, InterruptedException, TimeoutException {
        List<TopicPartition> found = new ArrayList<>();
        for (Map.Entry<String, KafkaFuture<TopicDescription>> topic : admin.describeTopics(topics).topicNameValues().entrySet()) {
            try {
                TopicDescription d = topic.getValue().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                d.partitions().forEach(p -> found.add(new TopicPartition(d.name(), p.partition())));
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
            }
        }
        if (found.isEmpty()) {
            throw new ExecutionException(new IllegalStateException("none of " + topics + " exists"));
        }
        return found;
    }

    @Override
    public String toString() {
        return String.valueOf(topics);
    }

    @Override
    public void close() {
        admin.close(timeout);
    }
}

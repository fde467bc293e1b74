package io.flowsql.job.cli;

import io.flowsql.config.kafka.KafkaClientFactory;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code caught-up}: waits until a consumer group's committed offsets reach the end of a topic (its committed end,
 * read_committed). The job commits its question offsets when a checkpoint completes, in the same step that commits
 * the answers' transaction; a job stopped between the two leaves answered questions to be read again by the next job.
 * The quickstart waits for this before it stops its job, so the next run starts after the questions this one answered.
 * Exit 0 when caught up, 3 when not within --timeout (it prints how many records are still behind).
 */
@Command(name = "caught-up", mixinStandardHelpOptions = true,
        description = "Wait until a consumer group (e.g. the job's kafka.group-id) has committed offsets up to the end of a topic.")
final class CaughtUpCommand implements Callable<Integer> {
    @Mixin
    KafkaConnection kafka;

    @Option(names = {"-t", "--topic"}, defaultValue = "questions", description = "Topic (default ${DEFAULT-VALUE}).")
    String topic;

    @Option(names = {"-g", "--group"}, required = true, description = "The consumer group (the job's kafka.group-id).")
    String group;

    @Option(names = "--timeout", defaultValue = "30s", description = "Give up after this long (default ${DEFAULT-VALUE}); exit code 3.")
    String timeout;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        long deadline = System.nanoTime() + org.apache.flink.util.TimeUtils.parseDuration(timeout).toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = groupReader(kafka.factory(), group)) {
            Set<TopicPartition> partitions = new HashSet<>();
            consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            long behind = behind(consumer, partitions);
            while (behind > 0 && System.nanoTime() < deadline) {
                Thread.sleep(250);
                behind = behind(consumer, partitions);
            }
            if (behind > 0) {
                err.println("group " + group + " is still " + behind + " record(s) behind the end of " + topic
                        + " after " + timeout + " (a next job reads them again, answered or not)");
                err.flush();
                return 3;
            }
            err.println("group " + group + " has committed " + topic + " to its end");
            err.flush();
            return 0;
        }
    }

    /** Records between the group's committed offsets (0 when none) and the topic's committed end, summed over partitions. */
    private static long behind(KafkaConsumer<byte[], byte[]> consumer, Set<TopicPartition> partitions) {
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(partitions);
        long behind = 0;
        for (TopicPartition p : partitions) {
            OffsetAndMetadata at = committed.get(p);
            behind += Math.max(0, ends.getOrDefault(p, 0L) - (at == null ? 0 : at.offset()));
        }
        return behind;
    }

    /**
     * A consumer in the group that only reads the group's committed offsets: it never subscribes, polls or commits,
     * so the group's members and offsets are untouched. Its end offsets are the committed ends (read_committed).
     */
    static KafkaConsumer<byte[], byte[]> groupReader(KafkaClientFactory factory, String group) {
        return factory.consumer(Map.of(
                ConsumerConfig.GROUP_ID_CONFIG, group,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}

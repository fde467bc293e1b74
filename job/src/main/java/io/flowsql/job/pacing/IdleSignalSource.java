package io.flowsql.job.pacing;

import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;

import java.time.Duration;
import java.util.List;
import io.flowsql.config.kafka.KafkaClientFactory;

/**
 * A source that emits nothing and tells Flink's checkpoint coordinator when the job is idle. Its enumerator (on the
 * JobManager) reads the end offsets of the job's topics every {@code pollInterval}; once none moved for
 * {@code idleAfter} it reports the source as "processing backlog", which makes the coordinator use
 * {@code execution.checkpointing.interval-during-backlog} (the job sets it to {@code job.checkpoint-interval-idle}),
 * and at the first movement it reports the opposite, and the coordinator reschedules the next checkpoint to the short
 * interval at once. Flink's backlog signal was made to lengthen checkpoints while a job catches up; here it lengthens
 * them while there is nothing to catch up with: no question, no answer, no feedback in flight. Its readers only wait.
 */
public final class IdleSignalSource implements Source<Void, NoSplit, Boolean> {
    private final KafkaClientFactory kafka;
    private final List<String> topics;
    private final Duration pollInterval;
    private final Duration idleAfter;

    public IdleSignalSource(KafkaClientFactory kafka, List<String> topics, Duration pollInterval, Duration idleAfter) {
        this.kafka = kafka;
        this.topics = List.copyOf(topics);
        this.pollInterval = pollInterval;
        this.idleAfter = idleAfter;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public SourceReader<Void, NoSplit> createReader(SourceReaderContext readerContext) {
        return new WaitingReader();
    }

    @Override
    public SplitEnumerator<NoSplit, Boolean> createEnumerator(SplitEnumeratorContext<NoSplit> context) {
        return new IdleSignalEnumerator(context, () -> new TopicEndOffsets(kafka, topics,
                pollInterval.multipliedBy(5)), pollInterval, idleAfter);
    }

    @Override
    public SplitEnumerator<NoSplit, Boolean> restoreEnumerator(SplitEnumeratorContext<NoSplit> context, Boolean checkpoint) {
        return createEnumerator(context);
    }

    @Override
    public SimpleVersionedSerializer<NoSplit> getSplitSerializer() {
        return NoSplit.SERIALIZER;
    }

    @Override
    public SimpleVersionedSerializer<Boolean> getEnumeratorCheckpointSerializer() {
        return NoSplit.NOTHING_TO_KEEP;
    }
}

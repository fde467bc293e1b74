package io.flowsql.job.kafka;

import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.EventJson;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.nio.charset.StandardCharsets;

/**
 * Writes a dead letter keyed by its source partition, and never fails doing it: dead letters are bounded when built
 * (a few KiB), and should one still not serialize or exceed {@link #MAX_RECORD_BYTES}, a minimal dead letter (source
 * coordinates, size, hash and reason, no excerpt) is written instead, so the dead-letter path cannot stop the job.
 */
public final class DeadLetterSerializer implements KafkaRecordSerializationSchema<DeadLetterEvent> {
    private static final long serialVersionUID = 1L;

    /** Far below the producer's and broker's 1 MiB defaults. */
    static final int MAX_RECORD_BYTES = 64 * 1024;

    private final String topic;

    public DeadLetterSerializer(String topic) {
        this.topic = topic;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(DeadLetterEvent d, KafkaSinkContext context, Long timestamp) {
        byte[] key = (d.topic + "/" + d.partition).getBytes(StandardCharsets.UTF_8);
        return new ProducerRecord<>(topic, null, timestamp, key, bytes(d));
    }

    static byte[] bytes(DeadLetterEvent d) {
        try {
            byte[] json = EventJson.toBytes(d);
            if (json.length <= MAX_RECORD_BYTES) {
                return json;
            }
        } catch (RuntimeException e) {
            // fall through to the minimal form
        }
        DeadLetterEvent minimal = new DeadLetterEvent(null, d.topic, d.partition, d.offset,
                d.reason == null ? "internal: no reason" : d.reason.substring(0, Math.min(1_000, d.reason.length())), d.receivedAt);
        minimal.rawBytes = d.rawBytes;
        minimal.rawSha256 = d.rawSha256;
        minimal.rawTruncated = d.rawBytes == null ? null : Boolean.TRUE;
        return EventJson.toBytes(minimal);
    }
}

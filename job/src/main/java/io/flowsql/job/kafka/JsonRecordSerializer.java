package io.flowsql.job.kafka;

import io.flowsql.events.EventJson;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.util.function.SerializableFunction;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.nio.charset.StandardCharsets;

/** Writes an event as JSON to one topic with a key taken from the event, so one dialogue's records share a partition. */
public final class JsonRecordSerializer<T> implements KafkaRecordSerializationSchema<T> {
    private static final long serialVersionUID = 1L;

    private final String topic;
    /** Picks the record key of an event. */
    private final SerializableFunction<T, String> keyOf;

    public JsonRecordSerializer(String topic, SerializableFunction<T, String> keyOf) {
        this.topic = topic;
        this.keyOf = keyOf;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(T event, KafkaSinkContext context, Long timestamp) {
        String key = keyOf.apply(event);
        return new ProducerRecord<>(topic, null, timestamp, key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                EventJson.toBytes(event));
    }
}

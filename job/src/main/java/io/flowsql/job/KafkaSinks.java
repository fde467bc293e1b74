package io.flowsql.job;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.DeadLetterEvent;
import io.flowsql.job.kafka.DeadLetterSerializer;
import io.flowsql.job.kafka.JsonRecordSerializer;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.kafka.clients.producer.ProducerConfig;

import java.util.Map;

/**
 * Builds the exactly-once Kafka sinks: answers keyed by dialogue id, dead letters keyed by their source
 * partition. Records become visible to read_committed readers when the checkpoint that covers them completes.
 * The kafka.client.* pass-through properties (SASL, TLS) are applied first, so the job's own settings win.
 */
public final class KafkaSinks {
    private KafkaSinks() {}

    public static KafkaSink<AnswerEvent> answers(JobConfig config) {
        return exactlyOnce(config, "answers",
                new JsonRecordSerializer<AnswerEvent>(config.get(JobOptions.ANSWERS_TOPIC), a -> a.dialogueId));
    }

    public static KafkaSink<DeadLetterEvent> deadLetters(JobConfig config) {
        return exactlyOnce(config, "dead-letters", new DeadLetterSerializer(config.get(JobOptions.DEAD_LETTERS_TOPIC)));
    }

    private static <T> KafkaSink<T> exactlyOnce(JobConfig config, String name, KafkaRecordSerializationSchema<T> serializer) {
        return config.kafkaClients().<T>sink(Map.of())
                .setRecordSerializer(serializer)
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(config.get(JobOptions.TRANSACTIONAL_ID_PREFIX) + "-" + name)
                .setProperty(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
                        Long.toString(config.get(JobOptions.TRANSACTION_TIMEOUT).toMillis()))
                .build();
    }
}

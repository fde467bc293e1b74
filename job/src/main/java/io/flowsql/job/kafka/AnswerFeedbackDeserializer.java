package io.flowsql.job.kafka;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.UncheckedIOException;

/**
 * Reads answers back for the dialogue history, the request-id check and the journal's release, only the fields they
 * use ({@link EventJson#parseAnswerReadBack}); a foreign or broken record there is skipped with a warning, never fatal.
 */
public final class AnswerFeedbackDeserializer implements KafkaRecordDeserializationSchema<AnswerEvent> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(AnswerFeedbackDeserializer.class);

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<AnswerEvent> out) {
        if (record.value() == null) {
            return;
        }
        try {
            AnswerEvent answer = EventJson.parseAnswerReadBack(record.value());
            if (answer.dialogueId != null && answer.requestId != null) {
                out.collect(answer);
            }
        } catch (UncheckedIOException e) {
            LOG.warn("skipping unreadable answer at {}/{}@{}: {}", record.topic(), record.partition(), record.offset(),
                    e.getMessage());
        }
    }

    @Override
    public TypeInformation<AnswerEvent> getProducedType() {
        return TypeInformation.of(AnswerEvent.class);
    }
}

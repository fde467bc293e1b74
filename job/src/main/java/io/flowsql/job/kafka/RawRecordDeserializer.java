package io.flowsql.job.kafka;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Keeps every question record whole (never fails), leaving parsing to ParseAndValidate where a failure has a place to go. */
public final class RawRecordDeserializer implements KafkaRecordDeserializationSchema<RawRecord> {
    private static final long serialVersionUID = 1L;

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<RawRecord> out) {
        out.collect(new RawRecord(record.key(), record.value(), record.topic(), record.partition(), record.offset(),
                record.timestamp()));
    }

    @Override
    public TypeInformation<RawRecord> getProducedType() {
        return TypeInformation.of(RawRecord.class);
    }
}

package io.flowsql.job.kafka;

/**
 * A Kafka record exactly as read (value bytes plus topic, partition and offset), so that a record that
 * cannot be parsed still becomes a dead letter that says where it came from. A Flink POJO.
 */
public class RawRecord {
    public byte[] key;
    public byte[] value;
    public String topic;
    public int partition;
    public long offset;
    public long timestamp;

    public RawRecord() {}

    public RawRecord(byte[] key, byte[] value, String topic, int partition, long offset, long timestamp) {
        this.key = key;
        this.value = value;
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.timestamp = timestamp;
    }

    /** "topic/partition@offset", the request's origin in traces. */
    public String origin() {
        return topic + "/" + partition + "@" + offset;
    }
}

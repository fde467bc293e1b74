package io.flowsql.job.kafka;

import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.EventSchemas;
import io.flowsql.events.RejectKind;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The dead-letter path cannot fail on what it is given: an oversized dead letter is written in its minimal form. */
class DeadLetterSerializerTest {

    @Test
    void aDeadLetterTooLargeForItsTopicIsWrittenWithoutItsExcerpt() {
        DeadLetterEvent huge = new DeadLetterEvent("\u0001".repeat(300_000), "questions", 3, 42L, "not_json: " + "x".repeat(5_000),
                "2025-03-01T12:00:00Z");
        huge.rawBytes = 300_000L;
        huge.rawSha256 = "ab".repeat(32);
        ProducerRecord<byte[], byte[]> record = new DeadLetterSerializer("dead-letters").serialize(huge, null, 7L);

        assertThat(record.topic()).isEqualTo("dead-letters");
        assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo("questions/3");
        assertThat(record.value().length).isLessThan(2_000);
        DeadLetterEvent written = EventJson.parseDeadLetter(record.value());
        assertThat(written.raw).isNull();
        assertThat(written.rawTruncated).isTrue();
        assertThat(written.rawBytes).isEqualTo(300_000L);
        assertThat(written.rawSha256).isEqualTo(huge.rawSha256);
        assertThat(written.offset).isEqualTo(42L);
        assertThat(written.reason).startsWith("not_json: xxx").hasSize(1_000);
    }

    @Test
    void everyRejectKindIsAReasonTheSchemaAccepts() throws Exception {
        for (RejectKind kind : RejectKind.values()) {
            DeadLetterEvent d = new DeadLetterEvent("x", "questions", 0, 1L, kind.wireName() + ": why", "2025-03-01T12:00:00Z");
            assertThat(EventSchemas.deadLetterViolations(EventJson.mapper().readTree(DeadLetterSerializer.bytes(d))))
                    .as(kind.name()).isEmpty();
        }
    }

    @Test
    void anOrdinaryDeadLetterIsWrittenWhole() {
        DeadLetterEvent small = new DeadLetterEvent("<xml/>", "questions", 0, 1L, "not_json: x", "2025-03-01T12:00:00Z");
        DeadLetterEvent written = EventJson.parseDeadLetter(DeadLetterSerializer.bytes(small));
        assertThat(written.raw).isEqualTo("<xml/>");
        assertThat(written.reason).isEqualTo("not_json: x");
    }
}

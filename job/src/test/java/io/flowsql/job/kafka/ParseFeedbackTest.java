package io.flowsql.job.kafka;

import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.EventSchemas;
import io.flowsql.events.FeedbackEvent;
import io.flowsql.sql.catalog.DatabaseLocator;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Every feedback record becomes one feedback event or one dead letter in the dead-letters topic's format. */
class ParseFeedbackTest {

    private static RawRecord record(long offset, String value) {
        return new RawRecord("k".getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8), "feedback", 0, offset, 1234L);
    }

    @Test
    void goodFeedbackCarriesItsOriginAndBadFeedbackIsADeadLetterWithItsReason() throws Exception {
        ParseFeedback parse = new ParseFeedback(DatabaseLocator.forSharedData(Path.of(System.getProperty("flowsql.shared.data"))), 2048, 512);
        try (OneInputStreamOperatorTestHarness<RawRecord, FeedbackEvent> harness =
                     new OneInputStreamOperatorTestHarness<>(new ProcessOperator<>(parse))) {
            harness.open();
            harness.processElement(new StreamRecord<>(record(0, EventJson.toJson(FeedbackEvent.pair("fb-1", "concert_singer", "How many singers?", "SELECT count(*) FROM singer")))));
            harness.processElement(new StreamRecord<>(record(1, EventJson.toJson(FeedbackEvent.pair("fb-2", "no_such_db", "q", "SELECT 1")))));
            harness.processElement(new StreamRecord<>(record(2, "{\"kind\":\"pair\"")));
            harness.processElement(new StreamRecord<>(record(3, "{\"kind\":\"verdict\",\"feedback_id\":\"v\",\"verdict\":\"correct\"}")));
            harness.processElement(new StreamRecord<>(record(4, "x".repeat(4096))));

            List<FeedbackEvent> out = harness.extractOutputValues();
            assertThat(out).hasSize(1);
            assertThat(out.get(0).feedbackId).isEqualTo("fb-1");
            assertThat(out.get(0).offset).isZero();
            assertThat(out.get(0).timestampMillis).isEqualTo(1234L);
            List<DeadLetterEvent> dead = harness.getSideOutput(ParseFeedback.DEAD_LETTERS).stream().map(StreamRecord::getValue).toList();
            assertThat(dead).extracting(d -> d.offset).containsExactly(1L, 2L, 3L, 4L);
            assertThat(dead).extracting(d -> d.reason.substring(0, d.reason.indexOf(':')))
                    .containsExactly("unknown_database", "not_json", "schema", "too_large");
            assertThat(dead).allSatisfy(d -> assertThat(EventSchemas.deadLetterViolations(EventJson.mapper().valueToTree(d))).isEmpty());
        }
    }
}

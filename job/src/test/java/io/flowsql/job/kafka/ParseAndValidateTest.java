package io.flowsql.job.kafka;

import io.flowsql.events.DeadLetterEvent;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ParseAndValidateTest {
    private static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");

    @Test
    void eachRecordBecomesOneQuestionOrOneDeadLetter() throws Exception {
        KnownDatabases known = Set.of("concert_singer")::contains;
        ParseAndValidate function = new ParseAndValidate(known, Clock.fixed(NOW, ZoneOffset.UTC));
        List<RequestContext> questions = new ArrayList<>();
        List<DeadLetterEvent> dead = new ArrayList<>();
        Collector<RequestContext> out = new Collector<>() {
            @Override
            public void collect(RequestContext record) {
                questions.add(record);
            }

            @Override
            public void close() {}
        };
        ParseAndValidate.Context ctx = function.new Context() {
            @Override
            public Long timestamp() {
                return null;
            }

            @Override
            public TimerService timerService() {
                throw new UnsupportedOperationException();
            }

            @Override
            public <X> void output(OutputTag<X> tag, X value) {
                assertThat(tag).isEqualTo(ParseAndValidate.DEAD_LETTERS);
                dead.add((DeadLetterEvent) value);
            }
        };
        function.processElement(record(0, "{\"request_id\":\"r1\",\"dialogue_id\":\"d1\",\"db_id\":\"concert_singer\",\"question\":\"How many singers?\"}"), ctx, out);
        function.processElement(record(1, "{\"request_id\":\"r2\",\"dialogue_id\":\"d2\",\"db_id\":\"nope\",\"question\":\"How many?\"}"), ctx, out);
        function.processElement(record(2, "<xml/>"), ctx, out);
        function.processElement(new RawRecord(null, null, "questions", 1, 3L, 0L), ctx, out);

        assertThat(questions).hasSize(1);
        assertThat(questions.get(0).requestId).isEqualTo("r1");
        assertThat(questions.get(0).origin).isEqualTo("questions/1@0");
        assertThat(questions.get(0).receivedAtMillis).isEqualTo(NOW.toEpochMilli());

        assertThat(dead).extracting(d -> d.offset).containsExactly(1L, 2L, 3L);
        assertThat(dead.get(0).reason).isEqualTo("unknown_database: no database 'nope'");
        assertThat(dead.get(1).reason).startsWith("not_json: ");
        assertThat(dead.get(1).raw).isEqualTo("<xml/>");
        assertThat(dead.get(2).raw).isNull();
        assertThat(dead).allMatch(d -> d.topic.equals("questions") && d.partition == 1 && d.receivedAt.equals(NOW.toString()));
    }

    private static RawRecord record(long offset, String value) {
        return new RawRecord(null, value.getBytes(StandardCharsets.UTF_8), "questions", 1, offset, 0L);
    }
}

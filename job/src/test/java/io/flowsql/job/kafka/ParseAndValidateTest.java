package io.flowsql.job.kafka;

import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.EventSchemas;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.sql.catalog.DatabaseLocator;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ParseAndValidateTest {
    private static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");
    private static final String VALID = "{\"request_id\":\"r1\",\"dialogue_id\":\"d1\",\"db_id\":\"concert_singer\",\"question\":\"How many singers?\"}";

    private final List<RequestContext> questions = new ArrayList<>();
    private final List<DeadLetterEvent> dead = new ArrayList<>();
    private final ParseAndValidate function = new ParseAndValidate(
            DatabaseLocator.forSharedData(Path.of(System.getProperty("flowsql.shared.data"))),
            Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void eachRecordBecomesOneQuestionOrOneDeadLetter() throws Exception {
        process(record(0, "d1", VALID));
        process(record(1, "d2", "{\"request_id\":\"r2\",\"dialogue_id\":\"d2\",\"db_id\":\"nope\",\"question\":\"How many?\"}"));
        process(record(2, null, "<xml/>"));
        process(new RawRecord(null, null, "questions", 1, 3L, 0L));

        assertThat(questions).hasSize(1);
        assertThat(questions.get(0).requestId).isEqualTo("r1");
        assertThat(questions.get(0).origin).isEqualTo("questions/1@0");
        assertThat(questions.get(0).receivedAtMillis).isEqualTo(NOW.toEpochMilli());

        assertThat(dead).extracting(d -> d.offset).containsExactly(1L, 2L, 3L);
        assertThat(dead.get(0).reason).isEqualTo("unknown_database: no database 'nope'");
        assertThat(dead.get(1).reason).startsWith("not_json: ");
        assertThat(dead.get(1).raw).isEqualTo("<xml/>");
        assertThat(dead.get(1).rawTruncated).isFalse();
        assertThat(dead.get(1).rawBytes).isEqualTo(6L);
        assertThat(dead.get(2).raw).isNull();
        assertThat(dead).allMatch(d -> d.topic.equals("questions") && d.partition == 1 && d.receivedAt.equals(NOW.toString()));
    }

    @Test
    void aQuestionOutsideItsTenantsPolicyIsRefusedForbiddenNamingNothingSecret() throws Exception {
        ParseAndValidate guarded = new ParseAndValidate(
                DatabaseLocator.forSharedData(Path.of(System.getProperty("flowsql.shared.data"))), Clock.fixed(NOW, ZoneOffset.UTC))
                .withAccess(io.flowsql.access.AccessPolicies.fromOptions(java.util.Map.of(
                        "team-a.databases", "concert_singer,pets_1", "team-b.databases", "car_1"), "^([a-z-]+)/"));
        List<RequestContext> out = new ArrayList<>();
        Collector<RequestContext> collector = collector(out);
        guarded.processElement(record(0, "d1", VALID.replace("\"d1\"", "\"d1\",\"tenant\":\"team-a\"")), null, collector);
        guarded.processElement(record(1, "d1", VALID.replace("\"d1\"", "\"d1\",\"tenant\":\"team-b\"")), null, collector);
        guarded.processElement(record(2, "team-b/7", VALID.replace("\"d1\"", "\"team-b/7\"").replace("concert_singer", "car_1")), null, collector);
        guarded.processElement(record(3, "d1", VALID), null, collector);  // no tenant at all
        guarded.processElement(record(4, "d1", VALID.replace("\"d1\"", "\"d1\",\"tenant\":\"team-b\"")
                .replace("concert_singer", "no_such_db")), null, collector);  // refused, not "unknown database"

        assertThat(out).extracting(q -> q.requestId).hasSize(5);
        assertThat(out.get(0).isSettled()).isFalse();
        assertThat(out.get(0).tenant).isEqualTo("team-a");
        assertThat(out.get(2).isSettled()).isFalse();
        assertThat(out.get(2).tenant).isEqualTo("team-b");
        for (RequestContext refused : List.of(out.get(1), out.get(3), out.get(4))) {
            assertThat(refused.hasStatus(io.flowsql.pipeline.AnswerStatus.REFUSED)).isTrue();
            assertThat(refused.failure).isEqualTo(io.flowsql.pipeline.FailureKind.FORBIDDEN);
            assertThat(refused.error).isEqualTo(ParseAndValidate.FORBIDDEN).doesNotContain("car_1", "pets_1", "team");
            io.flowsql.events.AnswerEvent answer = io.flowsql.events.AnswerMapper.fromContext(refused);
            assertThat(answer.status).isEqualTo("refused");
            assertThat(answer.errorKind).isEqualTo("forbidden");
        }
    }

    private static Collector<RequestContext> collector(List<RequestContext> out) {
        return new Collector<>() {
            @Override
            public void collect(RequestContext record) {
                out.add(record);
            }

            @Override
            public void close() {}
        };
    }

    @Test
    void strictParsingRefusesWhatWasSilentlyAcceptedOrLost() throws Exception {
        String twoObjects = VALID + VALID.replace("r1", "r2");
        process(record(0, "d1", twoObjects));
        process(record(1, "d1", VALID + " trailing garbage"));
        process(record(2, "d1", "\uFEFF" + VALID));
        process(record(3, null, VALID));
        process(record(4, "d2", VALID));
        process(record(5, "d1", VALID.replace("}", ",\"options\":{\"disabled_stages\":[\"opensearch.algin\",\"sqlfix.review\"]}}")));
        process(record(6, "d1", VALID.replace("\"question\":", "\"question\":\"dup\",\"question\":")));
        byte[] latin1 = VALID.replace("singers", "chanteurs é").getBytes(StandardCharsets.ISO_8859_1);
        process(new RawRecord("d1".getBytes(StandardCharsets.UTF_8), latin1, "questions", 0, 7L, 0L));
        process(record(8, "d1", VALID.replace("}", ",\"options\":{\"disabled_stages\":[\"sqlfix.review\"]}}")));

        assertThat(questions).extracting(q -> q.requestId).containsExactly("r1");
        assertThat(questions.get(0).disabledStages).containsExactly("sqlfix.review");
        assertThat(dead).extracting(d -> d.offset).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L);
        assertThat(dead.get(0).reason).startsWith("not_json: more than one JSON value, or data after the JSON object");
        assertThat(dead.get(1).reason).startsWith("not_json: ");
        assertThat(dead.get(2).reason).isEqualTo("not_json: the record starts with a UTF-8 byte-order mark; send plain UTF-8 JSON");
        assertThat(dead.get(3).reason).startsWith("key_mismatch: the record has no key; key each question by its dialogue_id ('d1')");
        assertThat(dead.get(4).reason).startsWith("key_mismatch: the record key 'd2' is not the dialogue_id");
        assertThat(dead.get(5).reason).isEqualTo("unknown_stage: options.disabled_stages names no stage or switch: 'opensearch.algin'; "
                + "valid stages and switches: " + String.join(", ", io.flowsql.engine.StageRegistry.names()) + ", "
                + String.join(", ", io.flowsql.engine.StageSwitches.names()));
        assertThat(dead.get(5).reason).contains("opensearch.align, candidates.execute", "mmsql.refine");
        assertThat(dead.get(6).reason).startsWith("not_json: Duplicate field 'question'");
        assertThat(dead.get(7).reason).isEqualTo("not_json: not valid UTF-8");
        assertThat(dead.get(7).raw).contains("chanteurs \uFFFD");
    }

    @Test
    void hugeAndHostileRecordsBecomeDeadLettersThatFit() throws Exception {
        byte[] controls = new byte[400_000];
        Arrays.fill(controls, (byte) 1);
        byte[] quotes = new byte[900_000];
        Arrays.fill(quotes, (byte) '"');
        String bigQuestion = VALID.replace("How many singers?", "x".repeat(600_000));
        process(new RawRecord("d1".getBytes(StandardCharsets.UTF_8), controls, "questions", 0, 0L, 0L));
        process(new RawRecord(quotes, quotes, "questions", 0, 1L, 0L));
        process(record(2, "d1", bigQuestion));

        assertThat(questions).isEmpty();
        assertThat(dead).hasSize(3);
        for (DeadLetterEvent d : dead) {
            byte[] json = DeadLetterSerializer.bytes(d);
            assertThat(json.length).as("dead letter of offset " + d.offset).isLessThan(8 * 1024);
            assertThat(EventSchemas.deadLetterViolations(EventJson.mapper().readTree(json))).isEmpty();
            assertThat(d.reason).startsWith("too_large: record of ");
            assertThat(d.rawTruncated).isTrue();
            assertThat(d.rawSha256).hasSize(64);
        }
        assertThat(dead.get(0).rawBytes).isEqualTo(400_000L);
        assertThat(dead.get(0).raw).hasSize(4096 / 6).matches("\u0001+");
        assertThat(dead.get(1).raw).hasSize(2048);
        assertThat(dead.get(1).key).hasSize(256);
        assertThat(dead.get(2).raw).startsWith("{\"request_id\":\"r1\"");
        assertThat(dead.get(2).reason).isEqualTo("too_large: record of " + bigQuestion.length()
                + " bytes; a question record may hold at most 131072 bytes");
    }

    private void process(RawRecord record) throws Exception {
        Collector<RequestContext> out = new Collector<>() {
            @Override
            public void collect(RequestContext r) {
                questions.add(r);
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
        function.processElement(record, ctx, out);
    }

    private static RawRecord record(long offset, String key, String value) {
        return new RawRecord(key == null ? null : key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8),
                "questions", 1, offset, 0L);
    }

    @Test
    void behaviourSwitchesAreAcceptedBesideStageNames() {
        io.flowsql.events.QuestionEvent q = new io.flowsql.events.QuestionEvent("r", "d", "concert_singer", "How many?");
        q.options = new io.flowsql.events.QuestionOptions();
        q.options.disabledStages.addAll(io.flowsql.engine.StageSwitches.names());
        q.options.disabledStages.add("magsql.generate");
        assertThat(ParseAndValidate.unknownStages(q)).isNull();
        q.options.disabledStages.add("magsql.generate.nope");
        assertThat(ParseAndValidate.unknownStages(q)).contains("'magsql.generate.nope'");
    }
}

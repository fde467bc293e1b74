package io.flowsql.events;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The feedback topic's contract (schemas/feedback.schema.json) as the job reads it. */
class FeedbackSchemaTest {

    private static FeedbackParse parse(String json) {
        return EventJson.parseFeedback(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theThreeKindsParse() {
        FeedbackParse pair = parse("""
                {"kind":"pair","feedback_id":"fb-1","db_id":"concert_singer","question":"How many singers?",
                 "sql":"SELECT count(*) FROM singer","evidence":"","notes":"checked by Ana","sent_at":"2026-11-26T00:00:00Z"}""");
        assertThat(pair.isValid()).as(String.valueOf(pair.reason())).isTrue();
        assertThat(pair.feedback().sql).isEqualTo("SELECT count(*) FROM singer");
        FeedbackParse verdict = parse("""
                {"kind":"verdict","feedback_id":"v-1","request_id":"q-7","verdict":"wrong","corrected_sql":"SELECT 1"}""");
        assertThat(verdict.isValid()).as(String.valueOf(verdict.reason())).isTrue();
        assertThat(verdict.feedback().correctedSql).isEqualTo("SELECT 1");
        assertThat(parse("{\"kind\":\"retraction\",\"feedback_id\":\"r-1\",\"retracts\":\"fb-1\"}").isValid()).isTrue();
        assertThat(EventJson.parseFeedback(EventJson.toBytes(FeedbackEvent.verdict("v-2", "q-1", true, null))).isValid())
                .as("what the CLI writes is valid").isTrue();
    }

    @Test
    void badFeedbackIsRefusedWithItsReason() {
        assertThat(parse("{\"kind\":\"pair\",\"feedback_id\":\"fb-1\",\"db_id\":\"x\",\"question\":\"q\"}").reason())
                .startsWith("schema: ").contains("sql");
        assertThat(parse("{\"kind\":\"verdict\",\"feedback_id\":\"v\",\"verdict\":\"correct\"}").reason())
                .startsWith("schema: ").contains("request_id");
        assertThat(parse("{\"kind\":\"verdict\",\"feedback_id\":\"v\",\"request_id\":\"q\",\"verdict\":\"maybe\"}").reason()).startsWith("schema: ");
        assertThat(parse("{\"kind\":\"retraction\",\"feedback_id\":\"r\"}").reason()).startsWith("schema: ").contains("retracts");
        assertThat(parse("{\"kind\":\"pair\",\"feedback_id\":\"a,b=c\",\"db_id\":\"x\",\"question\":\"q\",\"sql\":\"s\"}").reason())
                .as("ids cannot break the lists they are named in").startsWith("schema: ");
        assertThat(parse("{\"kind\":\"pair\",\"feedback_id\":\"x\",\"db_id\":\"../../etc\",\"question\":\"q\",\"sql\":\"s\"}").reason())
                .startsWith("schema: ");
        assertThat(parse("{\"kind\":\"pair\",\"feedback_id\":\"x\",\"extra\":1}").reason()).startsWith("schema: ");
        assertThat(parse("{\"kind\":\"pair\"} {}").reason()).startsWith("not_json: ");
        assertThat(parse("{\"kind\":\"pair\",\"kind\":\"verdict\",\"feedback_id\":\"x\"}").reason()).startsWith("not_json: ");
        assertThat(parse("{\"kind\":\"pair\",\"feedback_id\":\"x\",\"db_id\":\"d\",\"question\":\"q\",\"sql\":\"" + "x".repeat(9000) + "\"}")
                .reason()).startsWith("schema: ");
    }
}

package io.flowsql.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.FeedbackEvent;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The verdict join alone (keyed state, as in the job): what a verdict teaches belongs to the tenant the answer was
 * given to. A verdict sent under another tenant (or under none) is refused as on an unknown answer, with the same
 * words, so a tenant can neither put another tenant's answer into its own knowledge nor learn that the answer exists.
 */
class VerdictJoinFunctionTest {
    private static final String WRONG_SQL = "SELECT name FROM visible_note WHERE id = 2";
    private static final String FIXED_SQL = "SELECT name FROM visible_note WHERE id = 1";

    private static KeyedTwoInputStreamOperatorTestHarness<String, FeedbackEvent, AnswerEvent, FeedbackEvent> harness()
            throws Exception {
        return new KeyedTwoInputStreamOperatorTestHarness<>(
                new KeyedCoProcessOperator<>(new VerdictJoinFunction(Duration.ofHours(1))),
                VerdictJoinFunction.feedbackKey(), VerdictJoinFunction.answerKey(), Types.STRING);
    }

    private static AnswerEvent answer(String requestId, String tenant) {
        AnswerEvent a = new AnswerEvent();
        a.requestId = requestId;
        a.dbId = "vault";
        a.question = "Which note is first?";
        a.sql = WRONG_SQL;
        a.tenant = tenant;
        return a;
    }

    private static FeedbackEvent correction(String feedbackId, String requestId, String tenant) {
        FeedbackEvent f = FeedbackEvent.verdict(feedbackId, requestId, false, FIXED_SQL);
        f.tenant = tenant;
        return f;
    }

    @Test
    void aVerdictTeachesUnderTheAnswersTenantAndOnlyItsOwnTenantMayGiveIt() throws Exception {
        try (var h = harness()) {
            h.open();
            h.processElement2(answer("r-a", "team-a"), 0);
            h.processElement2(answer("r-b", "team-b"), 0);
            h.processElement1(correction("f-own", "r-a", "team-a"), 1);
            h.processElement1(correction("f-steal", "r-a", "team-b"), 2);
            h.processElement1(correction("f-none", "r-b", null), 3);
            h.processElement1(correction("f-unknown", "r-zzz", "team-b"), 4);
            List<FeedbackEvent> out = h.extractOutputValues();
            assertThat(out).extracting(f -> f.feedbackId).containsExactly("f-own", "f-steal", "f-none", "f-unknown");

            FeedbackEvent own = out.get(0);
            assertThat(own.refusal).isNull();
            assertThat(own.kind).isEqualTo(FeedbackEvent.CORRECTION);
            assertThat(own.tenant).isEqualTo("team-a");
            assertThat(own.sql).isEqualTo(FIXED_SQL);
            assertThat(own.wrongSql).isEqualTo(WRONG_SQL);

            String unknown = out.get(3).refusal;
            assertThat(unknown).startsWith("unknown_request:");
            for (FeedbackEvent refused : List.of(out.get(1), out.get(2))) {
                assertThat(refused.kind).as(refused.feedbackId).isEqualTo(FeedbackEvent.VERDICT);
                assertThat(refused.refusal).as(refused.feedbackId)
                        .isEqualTo(unknown.replace("r-zzz", refused.requestId));
                assertThat(refused.sql).as("nothing of the answer is copied").isNull();
                assertThat(refused.wrongSql).isNull();
            }
        }
    }
}

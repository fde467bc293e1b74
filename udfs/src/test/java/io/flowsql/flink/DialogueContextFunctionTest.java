package io.flowsql.flink;

import io.flowsql.pipeline.DialogueTurn;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The dialogue operator alone: one turn in flight per dialogue, history from feedback, dedup, the release timer, and all of it across a snapshot/restore. */
class DialogueContextFunctionTest {
    private static final long FEEDBACK_WAIT = 10_000;

    private static KeyedTwoInputStreamOperatorTestHarness<String, RequestContext, FeedbackTurn, RequestContext> harness()
            throws Exception {
        return new KeyedTwoInputStreamOperatorTestHarness<>(
                new KeyedCoProcessOperator<>(new DialogueContextFunction(Duration.ofHours(1), FEEDBACK_WAIT)),
                new DialogueKeys.OfQuestion(), new DialogueKeys.OfFeedback(), Types.STRING);
    }

    private static RequestContext question(String requestId, String dialogueId, String text) {
        RequestContext ctx = new RequestContext();
        ctx.requestId = requestId;
        ctx.dialogueId = dialogueId;
        ctx.dbId = "concert_singer";
        ctx.question = text;
        return ctx;
    }

    private static FeedbackTurn answer(String dialogueId, String requestId, String sql) {
        return new FeedbackTurn(dialogueId, new DialogueTurn(requestId, "q of " + requestId, "answerable", sql, "answered, 1 rows"));
    }

    private static List<String> released(KeyedTwoInputStreamOperatorTestHarness<String, RequestContext, FeedbackTurn, RequestContext> h) {
        return h.extractOutputValues().stream().map(c -> c.requestId).toList();
    }

    private static List<String> historySqlOf(KeyedTwoInputStreamOperatorTestHarness<String, RequestContext, FeedbackTurn, RequestContext> h,
                                             String requestId) {
        return h.extractOutputValues().stream().filter(c -> c.requestId.equals(requestId)).findFirst().orElseThrow()
                .history.stream().map(t -> t.sql).toList();
    }

    @Test
    void followUpWaitsForTheAnswerAndSeesItEvenAcrossARestore() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness()) {
            h.open();
            h.processElement1(question("r1", "d1", "How many singers?"), 0);
            h.processElement1(question("r2", "d1", "And their names?"), 0);
            h.processElement1(question("x1", "d2", "Other dialogue"), 0);
            assertThat(released(h)).containsExactly("r1", "x1");
            assertThat(historySqlOf(h, "r1")).isEmpty();
            snapshot = h.snapshot(1, 1);
        }
        try (var h = harness()) {
            h.initializeState(snapshot);
            h.open();
            h.processElement2(answer("d1", "r1", "SELECT count(*) FROM singer"), 0);
            assertThat(released(h)).containsExactly("r2");
            assertThat(historySqlOf(h, "r2")).containsExactly("SELECT count(*) FROM singer");

            // a duplicate of the same answer (at-least-once view of the topic) changes nothing
            h.processElement2(answer("d1", "r1", "SELECT count(*) FROM singer"), 0);
            h.processElement2(answer("d1", "r2", "SELECT name FROM singer"), 0);
            h.processElement1(question("r3", "d1", "Oldest one?"), 0);
            assertThat(released(h)).containsExactly("r2", "r3");
            assertThat(historySqlOf(h, "r3")).containsExactly("SELECT count(*) FROM singer", "SELECT name FROM singer");
        }
    }

    @Test
    void aLostAnswerReleasesTheNextTurnWhenTheTimerFires() throws Exception {
        try (var h = harness()) {
            h.open();
            h.setProcessingTime(1_000);
            h.processElement1(question("r1", "d1", "first"), 0);
            h.processElement1(question("r2", "d1", "second"), 0);
            h.setProcessingTime(1_000 + FEEDBACK_WAIT - 1);
            assertThat(released(h)).containsExactly("r1");

            h.setProcessingTime(1_000 + FEEDBACK_WAIT);
            assertThat(released(h)).containsExactly("r1", "r2");
            assertThat(historySqlOf(h, "r2")).isEmpty();

            // the late answer of r1 still joins the history, and releases nothing by itself
            h.processElement2(answer("d1", "r1", "SELECT 1"), 0);
            assertThat(released(h)).containsExactly("r1", "r2");
            h.processElement2(answer("d1", "r2", "SELECT 2"), 0);
            h.processElement1(question("r3", "d1", "third"), 0);
            assertThat(historySqlOf(h, "r3")).containsExactly("SELECT 1", "SELECT 2");
        }
    }

    @Test
    void aQuestionWithoutDialogueIsItsOwnDialogue() throws Exception {
        try (var h = harness()) {
            h.open();
            h.processElement1(question("a", null, "one"), 0);
            h.processElement1(question("b", null, "two"), 0);
            assertThat(released(h)).containsExactly("a", "b");
        }
    }

    @Test
    void anAnswerSeenBeforeStillEndsTheTurnInFlight() throws Exception {
        try (var h = harness()) {
            h.open();
            // the answer of r1 is already in the history (e.g. an earlier question with that id was answered) ...
            h.processElement2(answer("d1", "r1", "SELECT 1"), 0);
            h.processElement1(question("r1", "d1", "first"), 0);
            h.processElement1(question("r2", "d1", "second"), 0);
            assertThat(released(h)).containsExactly("r1");
            // ... and when it comes back for the turn in flight, the next turn is released, not left for the timer
            h.processElement2(answer("d1", "r1", "SELECT 1"), 0);
            assertThat(released(h)).containsExactly("r1", "r2");
        }
    }

    @Test
    void historyIsCappedInTurnsAndBytesAndOnlyThatWindowIsCarried() throws Exception {
        try (var h = new KeyedTwoInputStreamOperatorTestHarness<>(
                new KeyedCoProcessOperator<>(new DialogueContextFunction(Duration.ofHours(1), FEEDBACK_WAIT,
                        new HistoryLimits(3, 1_000))),
                new DialogueKeys.OfQuestion(), new DialogueKeys.OfFeedback(), Types.STRING)) {
            h.open();
            for (int i = 0; i < 5; i++) {
                h.processElement2(answer("d1", "a" + i, "SELECT " + i), 0);
            }
            h.processElement1(question("r1", "d1", "next"), 0);
            assertThat(historySqlOf(h, "r1")).containsExactly("SELECT 2", "SELECT 3", "SELECT 4");

            h.processElement2(new FeedbackTurn("d1", new DialogueTurn("r1", "big", "answerable", "SELECT '" + "x".repeat(960) + "'",
                    "answered")), 0);
            h.processElement1(question("r2", "d1", "after a big turn"), 0);
            // the ~1,000-byte turn alone fits; with the one before it, it would not
            assertThat(historySqlOf(h, "r2")).hasSize(1).allMatch(sql -> sql.length() > 900);
        }
    }

    @Test
    void gaugesStayTrueAcrossARestore() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness()) {
            h.open();
            h.processElement1(question("r1", "d1", "first"), 0);
            h.processElement1(question("r2", "d1", "second"), 0);
            h.processElement1(question("x1", "d2", "other"), 0);
            snapshot = h.snapshot(1, 1);
        }
        DialogueContextFunction f = new DialogueContextFunction(Duration.ofHours(1), FEEDBACK_WAIT);
        try (var h = new KeyedTwoInputStreamOperatorTestHarness<>(new KeyedCoProcessOperator<>(f),
                new DialogueKeys.OfQuestion(), new DialogueKeys.OfFeedback(), Types.STRING)) {
            h.initializeState(snapshot);
            h.open();
            assertThat(f.gauges()).containsExactly(2L, 1L);
            h.processElement2(answer("d1", "r1", "SELECT 1"), 0);
            h.processElement2(answer("d1", "r2", "SELECT 2"), 0);
            h.processElement2(answer("d2", "x1", "SELECT 3"), 0);
            assertThat(f.gauges()).containsExactly(0L, 0L);
        }
    }
}

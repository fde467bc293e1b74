package io.flowsql.flink;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.DeadLetterEvent;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The request-id operator alone: first question through, repeats dead-lettered once answered (waiting while in flight), across a restore. */
class RequestIdFunctionTest {

    private static KeyedTwoInputStreamOperatorTestHarness<String, RequestContext, AnswerEvent, RequestContext> harness()
            throws Exception {
        return new KeyedTwoInputStreamOperatorTestHarness<>(
                new KeyedCoProcessOperator<>(new RequestIdFunction(Duration.ofHours(1), 2)),
                RequestIdFunction.questionKey(), RequestIdFunction.answerKey(), Types.STRING);
    }

    private static KeyedTwoInputStreamOperatorTestHarness<String, RequestContext, AnswerEvent, RequestContext> harness(
            boolean answersCommitted) throws Exception {
        return new KeyedTwoInputStreamOperatorTestHarness<>(
                new KeyedCoProcessOperator<>(new RequestIdFunction(Duration.ofHours(1), 2, answersCommitted)),
                RequestIdFunction.questionKey(), RequestIdFunction.answerKey(), Types.STRING);
    }

    /**
     * A new job reads again a question an earlier run answered (its consumer position was lost at the stop) after the
     * committed answer was read back: not answered again when the answers read back are committed ones; with
     * read_uncommitted (an aborted answer may be read back) the question goes on as before.
     */
    @Test
    void aCommittedAnswerOfAnEarlierRunMarksItsIdSoTheQuestionReadAgainIsNotAnsweredTwice() throws Exception {
        try (var h = harness(true)) {
            h.open();
            h.processElement2(answer("old-1"), 0);
            h.processElement1(question("old-1", 3), 0);
            h.processElement1(question("new-1", 4), 0);
            assertThat(h.extractOutputValues()).extracting(c -> c.requestId).containsExactly("new-1");
            assertThat(deadLetters(h)).singleElement().satisfies(d -> assertThat(d.reason)
                    .startsWith("duplicate_request_id: request_id old-1").contains("already answered (status answered)"));
        }
        try (var h = harness(false)) {
            h.open();
            h.processElement2(answer("old-1"), 0);
            h.processElement1(question("old-1", 3), 0);
            assertThat(h.extractOutputValues()).extracting(c -> c.requestId).containsExactly("old-1");
            assertThat(deadLetters(h)).isEmpty();
        }
    }

    /**
     * A job started without state reads the answers committed before it (here: old-1 of dialogue d1) before its first
     * question: old-1 read again is dead-lettered at once, without waiting for any answer read back, and so is a later
     * repeat; old-1 under another dialogue is a new question. A restored job has its state and reads nothing.
     */
    @Test
    void answersCommittedBeforeAStatelessStartAreNotAnsweredAgainARestoreReadsNone() throws Exception {
        java.util.concurrent.atomic.AtomicInteger loads = new java.util.concurrent.atomic.AtomicInteger();
        EarlierAnswers earlier = owned -> {
            loads.incrementAndGet();
            return owned.test("d1") ? java.util.Set.of(EarlierAnswers.key("d1", "old-1")) : java.util.Set.of();
        };
        OperatorSubtaskState snapshot;
        try (var h = withEarlier(earlier)) {
            h.open();
            h.processElement1(question("old-1", "d1", 3), 0);
            h.processElement1(question("old-1", "d1", 4), 0);
            h.processElement1(question("old-1", "d2", 5), 0);
            h.processElement1(question("new-1", "d1", 6), 0);
            assertThat(h.extractOutputValues()).extracting(c -> c.dialogueId + "/" + c.requestId).containsExactly("d2/old-1", "d1/new-1");
            assertThat(deadLetters(h)).hasSize(2).allSatisfy(d -> assertThat(d.reason)
                    .startsWith("duplicate_request_id: request_id old-1").contains("already answered"));
            assertThat(deadLetters(h).get(0).reason).contains("before this job started");
            snapshot = h.snapshot(1, 1);
        }
        assertThat(loads).hasValue(1);
        try (var h = withEarlier(earlier)) {
            h.initializeState(snapshot);
            h.open();
            h.processElement1(question("new-2", "d1", 7), 0);
            assertThat(h.extractOutputValues()).extracting(c -> c.requestId).containsExactly("new-2");
        }
        assertThat(loads).as("a restored job reads no earlier answers").hasValue(1);
    }

    private static KeyedTwoInputStreamOperatorTestHarness<String, RequestContext, AnswerEvent, RequestContext> withEarlier(
            EarlierAnswers earlier) throws Exception {
        return new KeyedTwoInputStreamOperatorTestHarness<>(
                new KeyedCoProcessOperator<>(new RequestIdFunction(Duration.ofHours(1), 2).withEarlierAnswers(earlier)),
                RequestIdFunction.questionKey(), RequestIdFunction.answerKey(), Types.STRING);
    }

    private static RequestContext question(String id, long offset) {
        return question(id, null, offset);
    }

    private static RequestContext question(String id, String dialogueId, long offset) {
        RequestContext ctx = new RequestContext();
        ctx.requestId = id;
        ctx.dialogueId = dialogueId;
        ctx.dbId = "concert_singer";
        ctx.question = "How many singers?";
        ctx.origin = "questions/1@" + offset;
        return ctx;
    }

    private static AnswerEvent answer(String id) {
        return answer(id, null);
    }

    private static AnswerEvent answer(String id, String dialogueId) {
        AnswerEvent a = new AnswerEvent();
        a.requestId = id;
        a.dialogueId = dialogueId;
        a.status = "answered";
        return a;
    }

    private static List<DeadLetterEvent> deadLetters(KeyedTwoInputStreamOperatorTestHarness<String, RequestContext, AnswerEvent, RequestContext> h) {
        var out = h.getSideOutput(RequestIdFunction.DUPLICATES);
        return out == null ? List.of() : out.stream().map(StreamRecord::getValue).toList();
    }

    @Test
    void aRepeatInFlightWaitsForTheFirstThenIsDeadLetteredAndSoIsALaterOne() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness()) {
            h.open();
            h.processElement1(question("r1", 10), 0);
            h.processElement1(question("r1", 11), 0);
            h.processElement1(question("r2", 12), 0);
            assertThat(h.extractOutputValues()).extracting(c -> c.requestId).containsExactly("r1", "r2");
            assertThat(deadLetters(h)).isEmpty();
            snapshot = h.snapshot(1, 1);
        }
        try (var h = harness()) {
            h.initializeState(snapshot);
            h.open();
            h.processElement2(answer("r1"), 0);
            assertThat(deadLetters(h)).singleElement().satisfies(d -> {
                assertThat(d.reason).startsWith("duplicate_request_id: request_id r1").contains("status answered");
                assertThat(d.topic).isEqualTo("questions");
                assertThat(d.partition).isEqualTo(1);
                assertThat(d.offset).isEqualTo(11);
                assertThat(d.raw).contains("\"request_id\":\"r1\"");
            });
            h.processElement1(question("r1", 13), 0);
            assertThat(deadLetters(h)).hasSize(2);
            assertThat(deadLetters(h).get(1).offset).isEqualTo(13);
            assertThat(h.extractOutputValues()).isEmpty();
        }
    }

    @Test
    void repeatsBeyondTheWaitingBoundAreDeadLetteredAtOnce() throws Exception {
        try (var h = harness()) {
            h.open();
            for (int i = 0; i < 4; i++) {
                h.processElement1(question("r1", i), 0);
            }
            assertThat(h.extractOutputValues()).hasSize(1);
            assertThat(deadLetters(h)).singleElement().satisfies(d -> assertThat(d.reason).contains("still being answered"));
            h.processElement2(answer("r1"), 0);
            assertThat(deadLetters(h)).hasSize(3);
        }
    }

    /**
     * The scope README.md and docs/OPERATIONS.md give a request id: unique within its dialogue. The check is keyed by
     * dialogue id (the keys the job uses, {@link RequestIdFunction#questionKey()} and {@link RequestIdFunction#answerKey()};
     * changing them would break restoring existing state), so the same id under another dialogue is another question,
     * answered again, and an answer marks its id answered in its own dialogue only. Should the key change, this test
     * fails: change the documentation with it.
     */
    @Test
    void aRequestIdIsCheckedWithinItsDialogueOnly() throws Exception {
        try (var h = harness()) {
            h.open();
            h.processElement1(question("r1", "d1", 1), 0);
            h.processElement1(question("r1", "d2", 2), 0);
            assertThat(h.extractOutputValues()).as("the same id under another dialogue goes on to be answered")
                    .extracting(c -> c.dialogueId).containsExactly("d1", "d2");
            h.processElement1(question("r1", "d1", 3), 0); // a repeat within d1 waits for d1's answer
            h.processElement2(answer("r1", "d2"), 0);
            assertThat(deadLetters(h)).as("d2's answer does not release d1's repeat").isEmpty();
            h.processElement1(question("r1", "d2", 4), 0);
            assertThat(deadLetters(h)).singleElement().satisfies(d -> {
                assertThat(d.offset).isEqualTo(4);
                assertThat(d.reason).contains("already answered");
            });
            h.processElement2(answer("r1", "d1"), 0);
            assertThat(deadLetters(h)).extracting(d -> d.offset).containsExactly(4L, 3L);
            assertThat(h.extractOutputValues()).hasSize(2);
        }
    }
}

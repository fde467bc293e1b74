package io.flowsql.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.DeadLetterEvent;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.DialogueTurn;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.pipeline.StateKeyType;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OperatorSnapshotUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Writes the operator snapshots {@link StateRestoreCompatibilityTest} restores: run once with the state classes of
 * the version being frozen ({@code -Dflowsql.write-state-fixtures=v1}), and commit the files under
 * src/test/resources/state/&lt;version&gt;/. Never overwrite a released version's files.
 */
class StateFixtures {
    static final String RESOURCE_DIR = "state";
    static final long FEEDBACK_WAIT = 60_000;
    static final long GATHER_TIMEOUT = 5_000;
    static final int MAX_WAITING_REPEATS = 2;

    /**
     * The fixtures' dialogue d1 after a restore, with r3 sent after it: r1's answer releases r2 with both earlier turns
     * in its history and its in-flight fields intact, and r2's answer releases r3.
     */
    static void releaseTheFixturesDialogue(
            KeyedTwoInputStreamOperatorTestHarness<String, RequestContext, FeedbackTurn, RequestContext> h) throws Exception {
        h.processElement2(new FeedbackTurn("d1", new DialogueTurn("r1", "And their names?", "answerable",
                "SELECT name FROM singer", "answered, 6 rows")), 0);
        java.util.List<RequestContext> out = h.extractOutputValues();
        assertThat(out).extracting(c -> c.requestId).containsExactly("r2");
        RequestContext r2 = out.get(0);
        assertThat(r2.history).extracting(t -> t.sql)
                .containsExactly("SELECT count(*) FROM singer", "SELECT name FROM singer");
        assertThat(r2.candidates).extracting(c -> c.sql)
                .containsExactly("SELECT count(*) FROM singer", "SELECT count(name) FROM singer");
        assertThat(r2.notes).containsEntry("k", "v");
        assertThat(r2.trace).extracting(t -> t.llmCalls).containsExactly(1);
        h.processElement2(new FeedbackTurn("d1", new DialogueTurn("r2", "And the oldest?", "answerable",
                "SELECT max(age) FROM singer", "answered, 1 row")), 0);
        assertThat(h.extractOutputValues()).extracting(c -> c.requestId).containsExactly("r2", "r3");
    }

    static KeyedTwoInputStreamOperatorTestHarness<String, RequestContext, FeedbackTurn, RequestContext> dialogueHarness()
            throws Exception {
        return new KeyedTwoInputStreamOperatorTestHarness<>(
                new KeyedCoProcessOperator<>(new DialogueContextFunction(Duration.ofHours(1), FEEDBACK_WAIT)),
                new DialogueKeys.OfQuestion(), new DialogueKeys.OfFeedback(), StateKeyType.STRING);
    }

    static KeyedOneInputStreamOperatorTestHarness<String, CandidateWork, RequestContext> gatherHarness() throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new CandidateGatherFunction("candidates.execute", GATHER_TIMEOUT)),
                new DialogueKeys.OfRequest(), StateKeyType.STRING);
    }

    static KeyedTwoInputStreamOperatorTestHarness<String, RequestContext, AnswerEvent, RequestContext> requestIdHarness()
            throws Exception {
        return new KeyedTwoInputStreamOperatorTestHarness<>(
                new KeyedCoProcessOperator<>(new RequestIdFunction(Duration.ofHours(1), MAX_WAITING_REPEATS)),
                new DialogueKeys.OfQuestion(), new DialogueKeys.OfAnswer(), StateKeyType.STRING);
    }

    /**
     * The request-id fixture after a restore: a repeat of the answered r2 is dead-lettered at once, r1's answer releases
     * the repeat (from questions/0@7) that waited for it, and r3, never seen, goes on to be answered.
     */
    static void settleTheFixturesRequestIds(
            KeyedTwoInputStreamOperatorTestHarness<String, RequestContext, AnswerEvent, RequestContext> h) throws Exception {
        h.processElement1(request("r2", "d1", "And their names?"), 0);
        h.processElement2(answer("r1", "d1", "refused"), 0);
        h.processElement1(request("r3", "d1", "The oldest?"), 0);
        assertThat(h.extractOutputValues()).extracting(c -> c.requestId).containsExactly("r3");
        java.util.List<DeadLetterEvent> dead = h.getSideOutput(RequestIdFunction.DUPLICATES).stream()
                .map(StreamRecord::getValue).toList();
        assertThat(dead).hasSize(2);
        assertThat(dead.get(0).reason).startsWith("duplicate_request_id: request_id r2")
                .contains("already answered (status answered)");
        assertThat(dead.get(1).reason).startsWith("duplicate_request_id: request_id r1")
                .contains("answered meanwhile (status refused)");
        assertThat(dead.get(1).topic).isEqualTo("questions");
        assertThat(dead.get(1).partition).isZero();
        assertThat(dead.get(1).offset).isEqualTo(7);
        assertThat(dead.get(1).raw).contains("\"dialogue_id\":\"d1\"", "How many singers?");
    }

    /** An answer as the feedback source reads it back from the answers topic. */
    static AnswerEvent answer(String requestId, String dialogueId, String status) {
        AnswerEvent answer = new AnswerEvent();
        answer.requestId = requestId;
        answer.dialogueId = dialogueId;
        answer.status = status;
        return answer;
    }

    /** The fan-out id the gather fixture of a version uses (versions before v2 had none). */
    static String batchOf(String version) {
        return "v1".equals(version) ? null : "b1";
    }

    /** A request as far as the stages take it, with every kind of nested field filled. */
    static RequestContext request(String requestId, String dialogueId, String question) {
        RequestContext ctx = new RequestContext();
        ctx.requestId = requestId;
        ctx.dialogueId = dialogueId;
        ctx.dbId = "concert_singer";
        ctx.question = question;
        ctx.strategy = "opensearch";
        ctx.origin = "questions/0/" + requestId.length();
        ctx.receivedAtMillis = 1_700_000_000_000L;
        ctx.notes.put("k", "v");
        ctx.linkedColumns.add("singer.name");
        Candidate c = new Candidate("opensearch.generate#0", "SELECT count(*) FROM singer");
        c.previewColumns.add("count(*)");
        ctx.candidates.add(c);
        ctx.candidates.add(new Candidate("opensearch.generate#1", "SELECT count(name) FROM singer"));
        StageTrace trace = new StageTrace("opensearch.generate");
        trace.llmCalls = 1;
        ctx.trace.add(trace);
        return ctx;
    }

    @Test
    @EnabledIfSystemProperty(named = "flowsql.write-state-fixtures", matches = "v\\d+")
    void writeFixtures() throws Exception {
        Path dir = Path.of("src/test/resources", RESOURCE_DIR, System.getProperty("flowsql.write-state-fixtures"));
        Files.createDirectories(dir);
        try (var h = dialogueHarness()) {
            h.open();
            h.processElement2(new FeedbackTurn("d1", new DialogueTurn("r0", "How many singers?", "answerable",
                    "SELECT count(*) FROM singer", "answered, 1 rows: 6")), 0);
            h.processElement1(request("r1", "d1", "And their names?"), 0);
            h.processElement1(request("r2", "d1", "The oldest?"), 0);
            OperatorSubtaskState state = h.snapshot(1, 1);
            OperatorSnapshotUtil.writeStateHandle(state, dir.resolve("dialogue-context.snapshot").toString());
        }
        try (var h = gatherHarness()) {
            h.open();
            RequestContext ctx = request("q1", "q1", "How many singers?");
            String batch = batchOf(System.getProperty("flowsql.write-state-fixtures"));
            h.processElement(CandidateWork.ofContext(ctx, 2, batch), 0);
            CandidateWork first = CandidateWork.ofCandidate(ctx, 0, batch);
            first.candidate = new Candidate(first.candidate.source, first.candidate.sql);
            first.candidate.executed = true;
            first.candidate.resultFingerprint = "f0";
            h.processElement(first, 0);
            OperatorSubtaskState state = h.snapshot(1, 1);
            OperatorSnapshotUtil.writeStateHandle(state, dir.resolve("candidate-gather.snapshot").toString());
        }
        try (var h = requestIdHarness()) {
            h.open();
            // in dialogue d1: r1 in flight with a repeat waiting for its answer, r2 answered
            h.processElement1(request("r1", "d1", "How many singers?"), 0);
            RequestContext repeat = request("r1", "d1", "How many singers?");
            repeat.origin = "questions/0@7";
            h.processElement1(repeat, 0);
            h.processElement1(request("r2", "d1", "And their names?"), 0);
            h.processElement2(answer("r2", "d1", "answered"), 0);
            OperatorSubtaskState state = h.snapshot(1, 1);
            OperatorSnapshotUtil.writeStateHandle(state, dir.resolve("request-ids.snapshot").toString());
        }
    }
}

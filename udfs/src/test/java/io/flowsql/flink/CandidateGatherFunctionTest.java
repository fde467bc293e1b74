package io.flowsql.flink;

import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The gather alone: candidates put back in place in any arrival order, a timer for stragglers, late ones dropped, state across a restore. */
class CandidateGatherFunctionTest {
    private static final long GATHER_TIMEOUT = 5_000;

    private static KeyedOneInputStreamOperatorTestHarness<String, CandidateWork, RequestContext> harness() throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new CandidateGatherFunction("candidates.execute", GATHER_TIMEOUT)),
                new DialogueKeys.OfRequest(), Types.STRING);
    }

    private static RequestContext request(String id, String... sqls) {
        RequestContext ctx = new RequestContext();
        ctx.requestId = id;
        ctx.dbId = "concert_singer";
        for (int i = 0; i < sqls.length; i++) {
            ctx.candidates.add(new Candidate("gen#" + i, sqls[i]));
        }
        return ctx;
    }

    private static CandidateWork ran(RequestContext ctx, int index, String fingerprint) {
        CandidateWork w = CandidateWork.ofCandidate(ctx, index);
        Candidate done = new Candidate(w.candidate.source, w.candidate.sql);
        done.executed = true;
        done.resultFingerprint = fingerprint;
        w.candidate = done;
        return w;
    }

    @Test
    void putsResultsBackInPlaceWhateverTheArrivalOrder() throws Exception {
        RequestContext ctx = request("r1", "SELECT 1", "SELECT 2", "SELECT 3");
        ctx.candidates.get(1).executed = true;
        ctx.candidates.get(1).resultFingerprint = "kept";
        try (var h = harness()) {
            h.open();
            h.processElement(ran(ctx, 2, "f2"), 0);
            h.processElement(CandidateWork.ofContext(ctx, 2), 0);
            assertThat(h.extractOutputValues()).isEmpty();
            h.processElement(ran(ctx, 0, "f0"), 0);

            List<RequestContext> out = h.extractOutputValues();
            assertThat(out).hasSize(1);
            assertThat(out.get(0).candidates).extracting(c -> c.resultFingerprint).containsExactly("f0", "kept", "f2");
            assertThat(out.get(0).candidates).allMatch(c -> c.executed && c.error == null);
            assertThat(out.get(0).trace).extracting(t -> t.stage).containsExactly("candidates.execute");
        }
    }

    @Test
    void aStragglerTimesOutAcrossARestoreAndLateResultsAreDropped() throws Exception {
        RequestContext ctx = request("r2", "SELECT 1", "SELECT slow()");
        OperatorSubtaskState snapshot;
        try (var h = harness()) {
            h.open();
            h.setProcessingTime(100);
            h.processElement(CandidateWork.ofContext(ctx, 2), 0);
            h.processElement(ran(ctx, 0, "f0"), 0);
            snapshot = h.snapshot(1, 1);
        }
        try (var h = harness()) {
            h.initializeState(snapshot);
            h.open();
            h.setProcessingTime(100 + GATHER_TIMEOUT - 1);
            assertThat(h.extractOutputValues()).isEmpty();
            h.setProcessingTime(100 + GATHER_TIMEOUT);

            List<RequestContext> out = h.extractOutputValues();
            assertThat(out).hasSize(1);
            assertThat(out.get(0).candidates.get(0).resultFingerprint).isEqualTo("f0");
            assertThat(out.get(0).candidates.get(1).executed).isTrue();
            assertThat(out.get(0).candidates.get(1).error).isEqualTo("timed out");

            h.processElement(ran(ctx, 1, "late"), 0);
            assertThat(h.extractOutputValues()).hasSize(1);
        }
    }

    @Test
    void aDuplicateSqlTakesTheResultOfItsTwinsRun() throws Exception {
        RequestContext ctx = request("r-dup", "SELECT 1", "SELECT 2", "SELECT 1", "SELECT 1");
        try (var h = harness()) {
            h.open();
            h.processElement(CandidateWork.ofContext(ctx, 2), 0);   // the fan-out ran SELECT 1 once, at index 0
            h.processElement(ran(ctx, 1, "f2"), 0);
            assertThat(h.extractOutputValues()).as("one of two runs back").isEmpty();
            h.processElement(ran(ctx, 1, "f2"), 0);                  // a replayed result is not counted twice
            assertThat(h.extractOutputValues()).isEmpty();
            h.processElement(ran(ctx, 0, "f1"), 0);

            List<RequestContext> out = h.extractOutputValues();
            assertThat(out).hasSize(1);
            assertThat(out.get(0).candidates).extracting(c -> c.resultFingerprint).containsExactly("f1", "f2", "f1", "f1");
            assertThat(out.get(0).candidates).extracting(c -> c.source).containsExactly("gen#0", "gen#1", "gen#2", "gen#3");
            assertThat(out.get(0).candidates).allMatch(c -> c.executed && c.error == null);
            assertThat(out.get(0).trace.get(0).note).isEqualTo("2 candidates, 0 timed out");
        }
    }

    @Test
    void aDuplicateTakesThisRunsResultNotAnEarlierTimedOutRunOfTheSameSql() throws Exception {
        RequestContext ctx = request("r-again", "SELECT 1", "SELECT 1", "SELECT 1");
        ctx.candidates.get(0).executed = true;
        ctx.candidates.get(0).error = "TIMEOUT: stopped after 10000 ms";
        try (var h = harness()) {
            h.open();
            h.processElement(CandidateWork.ofContext(ctx, 1), 0);    // the fan-out ran SELECT 1 again, at index 1
            h.processElement(ran(ctx, 1, "f1"), 0);
            RequestContext out = h.extractOutputValues().get(0);
            assertThat(out.candidates).extracting(c -> c.resultFingerprint).containsExactly(null, "f1", "f1");
            assertThat(out.candidates.get(2).error).isNull();
        }
    }

    @Test
    void aRequestWithNothingToRunPassesStraightThrough() throws Exception {
        try (var h = harness()) {
            h.open();
            h.processElement(CandidateWork.ofContext(request("r3"), 0), 0);
            assertThat(h.extractOutputValues()).extracting(c -> c.requestId).containsExactly("r3");
            assertThat(h.numKeyedStateEntries()).isZero();
        }
    }

    @Test
    void aRepeatedRequestIdIsGatheredOnItsOwnNotDroppedByTheFirstsFinishedMarker() throws Exception {
        RequestContext first = request("r4", "SELECT 1");
        RequestContext again = request("r4", "SELECT 2");
        try (var h = harness()) {
            h.open();
            h.processElement(CandidateWork.ofContext(first, 1, "a"), 0);
            h.processElement(withBatch(ran(first, 0, "f1"), "a"), 0);
            h.processElement(CandidateWork.ofContext(again, 1, "b"), 0);
            h.processElement(withBatch(ran(again, 0, "f2"), "b"), 0);
            assertThat(h.extractOutputValues()).extracting(c -> c.candidates.get(0).resultFingerprint).containsExactly("f1", "f2");
        }
    }

    @Test
    void resultsGatheredBeforeTheRequestRecordAreKeptWhenTheTimerFiresFirst() throws Exception {
        RequestContext ctx = request("r5", "SELECT 1", "SELECT 2");
        try (var h = harness()) {
            h.open();
            h.setProcessingTime(100);
            h.processElement(withBatch(ran(ctx, 0, "f0"), "c"), 0);
            h.setProcessingTime(100 + GATHER_TIMEOUT);
            assertThat(h.extractOutputValues()).isEmpty();
            h.processElement(CandidateWork.ofContext(ctx, 2, "c"), 0);
            List<RequestContext> out = h.extractOutputValues();
            assertThat(out).hasSize(1);
            assertThat(out.get(0).candidates.get(0).resultFingerprint).isEqualTo("f0");
            assertThat(out.get(0).candidates.get(1).error).isEqualTo("timed out");
        }
    }

    private static CandidateWork withBatch(CandidateWork work, String batch) {
        work.batch = batch;
        return work;
    }
}

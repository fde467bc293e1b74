package io.flowsql.flink;

import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.streaming.api.operators.StreamFlatMap;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The fan-out alone: one record per distinct SQL still to run, the request record with how many to wait for. */
class CandidateFanOutTest {

    private static List<CandidateWork> fanOut(RequestContext ctx) throws Exception {
        try (var h = new OneInputStreamOperatorTestHarness<RequestContext, CandidateWork>(
                new StreamFlatMap<>(new CandidateFanOut("candidates.execute", "opensearch")))) {
            h.open();
            h.processElement(ctx, 0);
            return h.extractOutputValues();
        }
    }

    private static RequestContext opensearchRequest(String id) {
        RequestContext ctx = new RequestContext();
        ctx.requestId = id;
        ctx.dbId = "concert_singer";
        ctx.strategy = "opensearch";
        return ctx;
    }

    /** A candidate an earlier stage ran, with its result's fingerprint or its error. */
    private static Candidate ranBefore(String source, String sql, String fingerprint, String error) {
        Candidate c = new Candidate(source, sql);
        c.executed = true;
        c.resultFingerprint = fingerprint;
        c.error = error;
        return c;
    }

    @Test
    void eachDistinctSqlRunsOnceAndASqlThatRanBeforeIsNotRunAgain() throws Exception {
        RequestContext ctx = opensearchRequest("r1");
        ctx.candidates.add(ranBefore("earlier#0", "SELECT 3", "f3", null));
        for (String sql : new String[] {"SELECT 1", "SELECT 2", "SELECT 1", "SELECT 3", "SELECT 1"}) {
            ctx.candidates.add(new Candidate("gen#" + ctx.candidates.size(), sql));
        }

        List<CandidateWork> out = fanOut(ctx);
        CandidateWork request = out.get(0);
        assertThat(request.isContext()).isTrue();
        assertThat(request.expected).isEqualTo(2);
        assertThat(out.subList(1, out.size())).extracting(w -> w.index).containsExactly(1, 2);
        assertThat(out).extracting(w -> w.batch).containsOnly(request.batch);
        Candidate sameAsEarlier = request.context.candidates.get(4);
        assertThat(sameAsEarlier.executed).as("took the result of the SQL that ran before").isTrue();
        assertThat(sameAsEarlier.resultFingerprint).isEqualTo("f3");
        assertThat(sameAsEarlier.source).isEqualTo("gen#4");
        assertThat(request.context.candidates.get(3).executed).as("waits for its twin's run").isFalse();
    }

    @Test
    void aSqlThatTimedOutBeforeRunsAgainButOneThatWasInvalidDoesNot() throws Exception {
        RequestContext ctx = opensearchRequest("r4");
        ctx.candidates.add(ranBefore("earlier#0", "SELECT slow", null, "TIMEOUT: stopped after 10000 ms"));
        ctx.candidates.add(ranBefore("earlier#1", "SELECT nope FROM singer", null, "INVALID_SQL: no such column: nope"));
        ctx.candidates.add(new Candidate("gen#2", "SELECT slow"));
        ctx.candidates.add(new Candidate("gen#3", "SELECT nope FROM singer"));

        List<CandidateWork> out = fanOut(ctx);
        assertThat(out.get(0).expected).isEqualTo(1);
        assertThat(out.subList(1, out.size())).extracting(w -> w.index).containsExactly(2);
        assertThat(out.get(0).context.candidates.get(3).error).isEqualTo("INVALID_SQL: no such column: nope");
        assertThat(out.get(0).context.candidates.get(2).executed).isFalse();
    }

    @Test
    void aRequestWhoseCandidatesAllRanBeforeLeavesTheStagesTraceEntry() throws Exception {
        RequestContext ctx = opensearchRequest("r3");
        ctx.candidates.add(ranBefore("earlier#0", "SELECT 1", "f1", null));
        ctx.candidates.add(new Candidate("crafted#0", "SELECT 1"));
        List<CandidateWork> out = fanOut(ctx);
        assertThat(out).hasSize(1);
        assertThat(out.get(0).expected).isZero();
        assertThat(out.get(0).context.candidates.get(1).resultFingerprint).isEqualTo("f1");
        assertThat(out.get(0).context.trace).extracting(t -> t.stage).containsExactly("candidates.execute");
    }

    @Test
    void aRequestWithTheStageSwitchedOffIsPassedOnWithNothingToRun() throws Exception {
        RequestContext ctx = opensearchRequest("r2");
        ctx.disabledStages.add("candidates.execute");
        ctx.candidates.add(new Candidate("gen#0", "SELECT 1"));
        List<CandidateWork> out = fanOut(ctx);
        assertThat(out).hasSize(1);
        assertThat(out.get(0).expected).isZero();
        assertThat(out.get(0).context.trace).isEmpty();
    }
}

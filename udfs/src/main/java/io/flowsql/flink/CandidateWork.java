package io.flowsql.flink;

import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.RequestContext;

/**
 * What travels through the candidate-execution side operator, keyed by request id: either the request
 * itself (with how many candidates it waits for) or one candidate to run, with its place in the list.
 */
public class CandidateWork {
    public String requestId;
    /**
     * Which fan-out of the request this record belongs to (unique per fan-out), so a request id that comes through
     * twice is gathered twice, not mixed with or dropped by the first. Null on records written before state version v2.
     */
    public String batch;
    public String dbId;
    /** The question's tenant, whose table list the candidate's SQL is checked against (null: none). */
    public String tenant;
    /** Set on the one record that carries the request; null on candidate records. */
    public RequestContext context;
    /** How many candidate records belong to this request (on the context record). */
    public int expected;
    /** The candidate's index in the request's candidate list (on candidate records). */
    public int index;
    public Candidate candidate;
    /** The run of this candidate on the execution pool, so a timeout can cancel it; never serialized. */
    transient java.util.concurrent.Future<?> run;

    public CandidateWork() {}

    public static CandidateWork ofContext(RequestContext ctx, int expected) {
        return ofContext(ctx, expected, null);
    }

    public static CandidateWork ofContext(RequestContext ctx, int expected, String batch) {
        CandidateWork w = new CandidateWork();
        w.requestId = ctx.requestId;
        w.batch = batch;
        w.dbId = ctx.dbId;
        w.context = ctx;
        w.expected = expected;
        return w;
    }

    public static CandidateWork ofCandidate(RequestContext ctx, int index) {
        return ofCandidate(ctx, index, null);
    }

    public static CandidateWork ofCandidate(RequestContext ctx, int index, String batch) {
        CandidateWork w = new CandidateWork();
        w.requestId = ctx.requestId;
        w.batch = batch;
        w.dbId = ctx.dbId;
        w.tenant = ctx.tenant;
        w.index = index;
        w.candidate = ctx.candidates.get(index);
        return w;
    }

    /** The gather's key: request id and fan-out. */
    public String gatherKey() {
        return batch == null ? requestId : requestId + "#" + batch;
    }

    public boolean isContext() {
        return context != null;
    }
}

package io.flowsql.flink;

import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.RequestContext;

/**
 * What travels through the candidate-execution side operator, keyed by request id: either the request
 * itself (with how many candidates it waits for) or one candidate to run, with its place in the list.
 */
public class CandidateWork {
    public String requestId;
    public String dbId;
    /** Set on the one record that carries the request; null on candidate records. */
    public RequestContext context;
    /** How many candidate records belong to this request (on the context record). */
    public int expected;
    /** The candidate's index in the request's candidate list (on candidate records). */
    public int index;
    public Candidate candidate;

    public CandidateWork() {}

    public static CandidateWork ofContext(RequestContext ctx, int expected) {
        CandidateWork w = new CandidateWork();
        w.requestId = ctx.requestId;
        w.dbId = ctx.dbId;
        w.context = ctx;
        w.expected = expected;
        return w;
    }

    public static CandidateWork ofCandidate(RequestContext ctx, int index) {
        CandidateWork w = new CandidateWork();
        w.requestId = ctx.requestId;
        w.dbId = ctx.dbId;
        w.index = index;
        w.candidate = ctx.candidates.get(index);
        return w;
    }

    public boolean isContext() {
        return context != null;
    }
}

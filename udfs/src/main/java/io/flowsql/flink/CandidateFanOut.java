package io.flowsql.flink;

import io.flowsql.engine.EngineConfig;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.util.Collector;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Splits a request into one record per candidate still to run plus one record carrying the request, so
 * candidates of one request run in parallel and the gather knows how many to wait for. The candidates
 * in the carried request are left as they are; the gather puts the executed ones back in place.
 */
public class CandidateFanOut extends RichFlatMapFunction<RequestContext, CandidateWork> {
    private final EngineConfig engine;
    private final String stageName;

    private transient OperatorStage stage;

    public CandidateFanOut(EngineConfig engine, String stageName) {
        this.engine = engine;
        this.stageName = stageName;
    }

    @Override
    public void open(OpenContext openContext) {
        stage = OperatorStage.open(engine, stageName, getRuntimeContext());
    }

    @Override
    public void flatMap(RequestContext ctx, Collector<CandidateWork> out) {
        List<Integer> pending = new ArrayList<>();
        if (stage.runsFor(ctx)) {
            for (int i = 0; i < ctx.candidates.size(); i++) {
                Candidate c = ctx.candidates.get(i);
                if (!c.executed) {
                    pending.add(i);
                }
            }
        } else {
            stage.metrics().skipped();
        }
        String batch = UUID.randomUUID().toString();
        out.collect(CandidateWork.ofContext(ctx, pending.size(), batch));
        for (int index : pending) {
            out.collect(CandidateWork.ofCandidate(ctx, index, batch));
        }
    }

    @Override
    public void close() {
        if (stage != null) {
            stage.close();
            stage = null;
        }
    }
}

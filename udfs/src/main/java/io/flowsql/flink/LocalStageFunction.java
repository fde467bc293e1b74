package io.flowsql.flink;

import io.flowsql.pipeline.RequestContext;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;

/** A stage that only computes (vote, alignment, finalization) as a plain map: no waiting, so no async operator. */
public class LocalStageFunction extends RichMapFunction<RequestContext, RequestContext> {
    private final BoundStage stage;

    private transient StageInvoker invoker;

    public LocalStageFunction(StageBinding binding, String stageName) {
        this.stage = new BoundStage(binding, stageName);
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        invoker = stage.open(getRuntimeContext());
    }

    @Override
    public RequestContext map(RequestContext ctx) {
        return invoker.invoke(ctx).join();
    }

    @Override
    public void close() throws Exception {
        stage.close();
    }
}

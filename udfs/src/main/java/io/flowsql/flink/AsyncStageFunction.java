package io.flowsql.flink;

import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;

import java.util.List;

/**
 * An LLM stage as an async operator, so many requests wait on the model at once. The stage works on a
 * copy of the request; when Flink's timeout fires first, the untouched original completes as a
 * failed answer naming the stage (never an exception, which would restart the job). Retries live in
 * the LLM client only.
 */
public class AsyncStageFunction extends RichAsyncFunction<RequestContext, RequestContext> {
    private final BoundStage stage;
    private final long timeoutMillis;

    private transient StageInvoker invoker;
    private transient TypeSerializer<RequestContext> copier;

    public AsyncStageFunction(StageBinding binding, String stageName, long timeoutMillis) {
        this.stage = new BoundStage(binding, stageName);
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        invoker = stage.open(getRuntimeContext());
        copier = getRuntimeContext().createSerializer(TypeInformation.of(RequestContext.class));
    }

    @Override
    public void asyncInvoke(RequestContext ctx, ResultFuture<RequestContext> resultFuture) {
        Stage applicable = invoker.applicableStage(ctx);
        if (applicable == null) {
            invoker.metrics().skipped();
            resultFuture.complete(List.of(ctx));
            return;
        }
        invoker.apply(applicable, copier.copy(ctx)).thenAccept(out -> resultFuture.complete(List.of(out)));
    }

    @Override
    public void timeout(RequestContext ctx, ResultFuture<RequestContext> resultFuture) {
        invoker.metrics().timedOut();
        ctx.fail(stage.stageName(), "timed out after " + timeoutMillis + " ms in stage " + stage.stageName());
        resultFuture.complete(List.of(ctx));
    }

    @Override
    public void close() throws Exception {
        stage.close();
    }
}

package io.flowsql.flink;

import io.flowsql.engine.EngineConfig;
import io.flowsql.pipeline.FailureKind;
import io.flowsql.pipeline.Cancellation;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;

import java.util.List;

/**
 * A stage as an async operator, so many requests wait on the model at once and nothing a stage does runs on the
 * Flink task thread: the stage starts on the engine's work pool and continues on its callback pool. The stage works
 * on a copy of the request; when Flink's timeout fires first, the stage's LLM calls are cancelled (the HTTP requests
 * aborted, their permits freed) and the untouched original completes as a failed answer naming the stage (never an
 * exception, which would restart the job). Retries live in the LLM client only.
 */
public class AsyncStageFunction extends RichAsyncFunction<RequestContext, RequestContext> {
    private final EngineConfig engine;
    private final String stageName;
    private final long timeoutMillis;

    private transient OperatorStage stage;
    private transient TypeSerializer<RequestContext> copier;

    public AsyncStageFunction(EngineConfig engine, String stageName, long timeoutMillis) {
        this.engine = engine;
        this.stageName = stageName;
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public void open(OpenContext openContext) {
        stage = OperatorStage.open(engine, stageName, getRuntimeContext());
        copier = getRuntimeContext().createSerializer(TypeInformation.of(RequestContext.class));
    }

    @Override
    public void asyncInvoke(RequestContext ctx, ResultFuture<RequestContext> resultFuture) {
        if (!stage.runsFor(ctx)) {
            stage.metrics().skipped();
            resultFuture.complete(List.of(ctx));
            return;
        }
        Cancellation cancellation = new Cancellation();
        ctx.cancellation = cancellation;
        RequestContext work = copier.copy(ctx);
        work.cancellation = cancellation;
        stage.run(work).thenAccept(out -> {
            out.cancellation = null;
            resultFuture.complete(List.of(out));
        });
    }

    @Override
    public void timeout(RequestContext ctx, ResultFuture<RequestContext> resultFuture) {
        Cancellation running = ctx.cancellation;
        ctx.cancellation = null;
        stage.metrics().timedOut();
        ctx.fail(stageName, FailureKind.TIMEOUT, "timed out after " + timeoutMillis + " ms in stage " + stageName);
        resultFuture.complete(List.of(ctx));
        // after completing: cancelling makes the stage's own future fail at once, and its (ignored) result must not
        // be the one that completes the record
        if (running != null) {
            running.cancel();
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

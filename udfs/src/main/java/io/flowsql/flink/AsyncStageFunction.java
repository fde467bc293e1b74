package io.flowsql.flink;

import io.flowsql.engine.EngineConfig;
import io.flowsql.engine.EngineFactory;
import io.flowsql.engine.EngineLease;
import io.flowsql.engine.StageDeclaration;
import io.flowsql.engine.StageRegistry;
import io.flowsql.pipeline.Cancellation;
import io.flowsql.pipeline.FailureKind;
import io.flowsql.pipeline.NamedStage;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;

import java.util.List;

/**
 * A stage as an async operator, so many requests wait on the model at once and nothing a stage does runs on the
 * Flink task thread. In {@code open()} it leases its TaskManager's shared engine (built where it runs from the
 * serializable {@link EngineConfig}) and takes the stage the registry declares under its name; each request the stage
 * runs for is handed to the engine's work pool ({@link NamedStage#applyOn}) and continues on its callback pool. The
 * stage works on a copy of the request; when Flink's timeout fires first, what the stage started is cancelled — its
 * LLM calls (the HTTP requests aborted, their permits freed) and its SQL statements (stopped at the next progress
 * check, the connection back in the pool; see {@code StageSql}) — and the untouched original completes as a failed answer naming the stage
 * (never an exception, which would restart the job). Retries live in the LLM client only.
 */
public class AsyncStageFunction extends RichAsyncFunction<RequestContext, RequestContext> {
    private final EngineConfig engine;
    private final String stageName;
    private final long timeoutMillis;

    private transient StageDeclaration declaration;
    private transient EngineLease lease;
    private transient NamedStage stage;
    private transient StageMetrics metrics;
    private transient TypeSerializer<RequestContext> copier;

    public AsyncStageFunction(EngineConfig engine, String stageName, long timeoutMillis) {
        this.engine = engine;
        this.stageName = stageName;
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public void open(OpenContext openContext) {
        declaration = StageRegistry.get(stageName);
        lease = EngineFactory.shared(engine);
        stage = lease.runtime().stage(stageName);
        metrics = new StageMetrics(getRuntimeContext().getMetricGroup(), stageName);
        copier = getRuntimeContext().createSerializer(TypeInformation.of(RequestContext.class));
    }

    @Override
    public void asyncInvoke(RequestContext ctx, ResultFuture<RequestContext> resultFuture) {
        if (!runsFor(ctx)) {
            metrics.skipped();
            resultFuture.complete(List.of(ctx));
            return;
        }
        Cancellation cancellation = new Cancellation();
        ctx.cancellation = cancellation;
        RequestContext work = copier.copy(ctx);
        work.cancellation = cancellation;
        long start = System.currentTimeMillis();
        int traceBefore = work.trace.size();
        stage.applyOn(lease.runtime().work(), work).whenComplete((out, error) -> {
            RequestContext done = out != null ? out : work;
            if (error != null) { // an Error the stage's guard does not catch
                done.fail(stageName, FailureKind.INTERNAL, String.valueOf(error));
            }
            done.cancellation = null;
            metrics.finished(done, traceBefore, System.currentTimeMillis() - start);
            resultFuture.complete(List.of(done));
        });
    }

    /**
     * Whether the stage runs for this request: the request's preset has it (a request of another preset, restored
     * from a savepoint of the single-chain graph, passes through), it is built in this engine, and it applies.
     */
    private boolean runsFor(RequestContext ctx) {
        String preset = ctx.strategy == null ? engine.defaultStrategy() : ctx.strategy;
        return stage != null && declaration.belongsTo(preset) && stage.appliesTo(ctx);
    }

    @Override
    public void timeout(RequestContext ctx, ResultFuture<RequestContext> resultFuture) {
        Cancellation running = ctx.cancellation;
        ctx.cancellation = null;
        metrics.timedOut();
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
        if (lease != null) {
            lease.close();
            lease = null;
        }
    }
}

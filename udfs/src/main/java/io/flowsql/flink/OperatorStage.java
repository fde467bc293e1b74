package io.flowsql.flink;

import io.flowsql.engine.EngineConfig;
import io.flowsql.engine.EngineFactory;
import io.flowsql.engine.EngineLease;
import io.flowsql.engine.StageDeclaration;
import io.flowsql.engine.StageRegistry;
import io.flowsql.pipeline.FailureKind;
import io.flowsql.pipeline.NamedStage;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.api.common.functions.RuntimeContext;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A stage as one operator instance runs it: a lease on its TaskManager's shared engine (made where the operator runs,
 * from the serializable {@link EngineConfig}), the stage the registry builds under this name, and its metrics. Decides
 * which requests the stage runs for and runs it so that the future always completes normally.
 */
final class OperatorStage implements AutoCloseable {
    private final StageDeclaration declaration;
    private final String defaultStrategy;
    private final EngineLease lease;
    private final NamedStage stage;
    private final StageMetrics metrics;

    private OperatorStage(StageDeclaration declaration, String defaultStrategy, EngineLease lease, StageMetrics metrics) {
        this.declaration = declaration;
        this.defaultStrategy = defaultStrategy;
        this.lease = lease;
        this.stage = lease.runtime().stage(declaration.name());
        this.metrics = metrics;
    }

    static OperatorStage open(EngineConfig config, String stageName, RuntimeContext runtime) {
        StageDeclaration declaration = StageRegistry.get(stageName);
        return new OperatorStage(declaration, config.defaultStrategy(), EngineFactory.shared(config),
                new StageMetrics(runtime.getMetricGroup(), stageName));
    }

    /**
     * The stage, when it runs for this request: the request's preset has it (a request of another preset, restored
     * from a savepoint of the single-chain graph, passes through), it is built in this engine, and it applies.
     */
    boolean runsFor(RequestContext ctx) {
        String preset = ctx.strategy == null ? defaultStrategy : ctx.strategy;
        return stage != null && declaration.belongsTo(preset) && stage.appliesTo(ctx);
    }

    /** Runs the stage (which {@link #runsFor} this request) on the engine's work pool; always completes normally. */
    CompletableFuture<RequestContext> run(RequestContext ctx) {
        long start = System.currentTimeMillis();
        int traceBefore = ctx.trace.size();
        return stage.applyOn(lease.runtime().work(), ctx).handle((result, error) -> {
            RequestContext out = result != null ? result : ctx;
            if (error != null) { // an Error the stage's guard does not catch
                out.fail(declaration.name(), FailureKind.INTERNAL, describe(error));
            }
            metrics.finished(out, traceBefore, System.currentTimeMillis() - start);
            return out;
        });
    }

    String name() {
        return declaration.name();
    }

    StageMetrics metrics() {
        return metrics;
    }

    static String describe(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        String message = cause.getMessage();
        return message == null || message.isBlank() ? cause.getClass().getSimpleName() : message;
    }

    @Override
    public void close() {
        lease.close();
    }
}

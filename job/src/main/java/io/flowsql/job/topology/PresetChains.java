package io.flowsql.job.topology;

import io.flowsql.engine.StageDeclaration;
import io.flowsql.engine.StageRegistry;
import io.flowsql.flink.AsyncStageFunction;
import io.flowsql.flink.CandidateExecuteFunction;
import io.flowsql.flink.CandidateFanOut;
import io.flowsql.flink.CandidateGatherFunction;
import io.flowsql.flink.CandidateWork;
import io.flowsql.flink.DialogueKeys;
import io.flowsql.flink.RouteByPreset;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StateKeyType;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

import java.util.concurrent.TimeUnit;

/**
 * The stages of the job graph: requests are routed by preset, and each preset the job serves has its own chain of
 * operators, one per stage of the preset in the registry's order (an async operator for a model or local stage; fan-out,
 * run and gather for a candidate execution), so a request passes only the stages its preset runs. The chains meet
 * again before the answer. Operator uids come from the registry ({@link StageDeclaration#uid}); the {@code full}
 * chain keeps the uids of the single chain of earlier releases.
 */
public final class PresetChains {
    public static final String ROUTE_UID = "route-by-preset";

    private PresetChains() {}

    /** Routes {@code requests} to their presets' chains and returns every request once it has passed its chain. */
    public static DataStream<RequestContext> attach(DataStream<RequestContext> requests, TopologyConfig config) {
        SingleOutputStreamOperator<RequestContext> routed = parallel(requests
                .process(new RouteByPreset(config.presets, config.engine.defaultStrategy()))
                .uid(ROUTE_UID).name("route by preset"), config);
        DataStream<RequestContext> answered = routed; // requests of a preset the job does not serve, already failed
        for (String preset : config.presets) {
            DataStream<RequestContext> chain = routed.getSideOutput(RouteByPreset.tag(preset));
            for (StageDeclaration stage : StageRegistry.stagesOf(preset)) {
                chain = switch (stage.kind()) {
                    // local stages too: alignment reads the database, so no stage runs on the task thread
                    case LLM, LOCAL -> asyncStage(chain, preset, stage, config);
                    case EXECUTE_CANDIDATES -> candidateStage(chain, preset, stage, config);
                };
            }
            answered = answered.union(chain);
        }
        return answered;
    }

    private static DataStream<RequestContext> asyncStage(DataStream<RequestContext> in, String preset,
                                                         StageDeclaration stage, TopologyConfig config) {
        long timeout = config.timeoutOf(stage.name()).toMillis();
        AsyncStageFunction function = new AsyncStageFunction(config.engine, stage.name(), timeout);
        int capacity = config.capacityOf(stage.name());
        SingleOutputStreamOperator<RequestContext> out = config.orderedStages
                ? AsyncDataStream.orderedWait(in, function, timeout, TimeUnit.MILLISECONDS, capacity)
                : AsyncDataStream.unorderedWait(in, function, timeout, TimeUnit.MILLISECONDS, capacity);
        return parallel(out.uid(stage.uid(preset)).name(preset + ": " + stage.name()), config);
    }

    /** Fan out the candidates to run, run them on the bounded pool, gather them by request id. */
    private static DataStream<RequestContext> candidateStage(DataStream<RequestContext> in, String preset,
                                                             StageDeclaration stage, TopologyConfig config) {
        String uid = stage.uid(preset);
        String name = preset + ": " + stage.name();
        SingleOutputStreamOperator<CandidateWork> work = parallel(in
                .flatMap(new CandidateFanOut(stage.name(), config.engine.defaultStrategy()))
                .uid(uid).name(name + " fan-out"), config);
        long timeout = config.executionTimeout.toMillis();
        SingleOutputStreamOperator<CandidateWork> executed = parallel(AsyncDataStream.unorderedWait(work,
                        new CandidateExecuteFunction(config.engine, config.executionPoolSize, timeout),
                        timeout, TimeUnit.MILLISECONDS, config.executionCapacity)
                .uid(uid + "-run").name(name + " run"), config);
        return parallel(executed
                .keyBy(new DialogueKeys.OfRequest(), StateKeyType.STRING)
                .process(new CandidateGatherFunction(stage.name(), config.gatherTimeout.toMillis()))
                .uid(uid + "-gather").name(name + " gather"), config);
    }

    static <T> SingleOutputStreamOperator<T> parallel(SingleOutputStreamOperator<T> op, TopologyConfig config) {
        return config.parallelism > 0 ? op.setParallelism(config.parallelism) : op;
    }
}

package io.flowsql.job.topology;

import io.flowsql.events.AnswerEvent;
import io.flowsql.flink.AnswerFunction;
import io.flowsql.flink.AsyncStageFunction;
import io.flowsql.flink.CandidateExecuteFunction;
import io.flowsql.flink.CandidateFanOut;
import io.flowsql.flink.CandidateGatherFunction;
import io.flowsql.flink.CandidateWork;
import io.flowsql.flink.DialogueContextFunction;
import io.flowsql.flink.DialogueKeys;
import io.flowsql.flink.FeedbackTurn;
import io.flowsql.flink.FeedbackTurns;
import io.flowsql.flink.StageBinding;
import io.flowsql.flink.StagePlan;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Wires the answering part of the job: the keyed dialogue operator (questions + answers read back),
 * one operator per stage of the canonical order (uid "stage-" + name), the candidate-execution side
 * operator, and the answer mapping. Sources and sinks stay outside, so tests and the job share it.
 */
public final class AnswerTopology {
    public static final String DIALOGUE_UID = "dialogue-context";
    public static final String FEEDBACK_UID = "feedback-turns";
    public static final String ANSWER_UID = "answer";

    private AnswerTopology() {}

    public static DataStream<AnswerEvent> attach(DataStream<RequestContext> questions,
                                                 DataStream<AnswerEvent> answersFeedback,
                                                 TopologyConfig config) {
        StageBinding binding = Objects.requireNonNull(config.binding, "TopologyConfig.binding");
        SingleOutputStreamOperator<FeedbackTurn> turns = answersFeedback
                .map(new FeedbackTurns()).uid(FEEDBACK_UID).name("feedback turns");
        DataStream<RequestContext> contexts = parallel(questions
                .keyBy(new DialogueKeys.OfQuestion(), Types.STRING)
                .connect(turns.keyBy(new DialogueKeys.OfFeedback(), Types.STRING))
                .process(new DialogueContextFunction(config.historyTtl, config.feedbackWait.toMillis(),
                        config.historyLimits))
                .uid(DIALOGUE_UID).name("dialogue context"), config);
        for (StagePlan stage : binding.plan()) {
            contexts = switch (stage.kind()) {
                // local stages too: alignment reads the database, so no stage runs on the task thread
                case LLM, LOCAL -> asyncStage(contexts, stage, config);
                case EXECUTE_CANDIDATES -> candidateStage(contexts, stage, config);
            };
        }
        return parallel(contexts.map(new AnswerFunction()).uid(ANSWER_UID).name("answer"), config);
    }

    private static DataStream<RequestContext> asyncStage(DataStream<RequestContext> in, StagePlan stage, TopologyConfig config) {
        long timeout = config.timeoutOf(stage.name()).toMillis();
        AsyncStageFunction function = new AsyncStageFunction(config.binding, stage.name(), timeout);
        int capacity = config.capacityOf(stage.name());
        SingleOutputStreamOperator<RequestContext> out = config.orderedStages
                ? AsyncDataStream.orderedWait(in, function, timeout, TimeUnit.MILLISECONDS, capacity)
                : AsyncDataStream.unorderedWait(in, function, timeout, TimeUnit.MILLISECONDS, capacity);
        return parallel(out.uid(stage.uid()).name(stage.name()), config);
    }

    /** Fan out the candidates to run, run them on the bounded pool, gather them by request id. */
    private static DataStream<RequestContext> candidateStage(DataStream<RequestContext> in, StagePlan stage, TopologyConfig config) {
        SingleOutputStreamOperator<CandidateWork> work = parallel(in
                .flatMap(new CandidateFanOut(config.binding, stage.name()))
                .uid(stage.uid()).name(stage.name() + " fan-out"), config);
        long timeout = config.executionTimeout.toMillis();
        SingleOutputStreamOperator<CandidateWork> executed = parallel(AsyncDataStream.unorderedWait(work,
                        new CandidateExecuteFunction(config.binding, config.executionPoolSize, timeout),
                        timeout, TimeUnit.MILLISECONDS, config.executionCapacity)
                .uid(stage.uid() + "-run").name(stage.name() + " run"), config);
        return parallel(executed
                .keyBy(new DialogueKeys.OfRequest(), Types.STRING)
                .process(new CandidateGatherFunction(stage.name(), config.gatherTimeout.toMillis()))
                .uid(stage.uid() + "-gather").name(stage.name() + " gather"), config);
    }

    private static <T> SingleOutputStreamOperator<T> parallel(SingleOutputStreamOperator<T> op, TopologyConfig config) {
        return config.parallelism > 0 ? op.setParallelism(config.parallelism) : op;
    }
}

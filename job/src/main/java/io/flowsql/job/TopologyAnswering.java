package io.flowsql.job;

import io.flowsql.events.AnswerEvent;
import io.flowsql.flink.HistoryLimits;
import io.flowsql.flink.StageBinding;
import io.flowsql.job.topology.AnswerTopology;
import io.flowsql.job.topology.TopologyConfig;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.streaming.api.datastream.DataStream;

/** The production answering: the stage topology, configured from the job options. */
public final class TopologyAnswering implements Answering {
    private final TopologyConfig topology;

    public TopologyAnswering(TopologyConfig topology) {
        this.topology = topology;
    }

    public static TopologyAnswering from(JobConfig config) {
        return from(config, EngineWiring.binding(config));
    }

    public static TopologyAnswering from(JobConfig config, StageBinding binding) {
        TopologyConfig t = new TopologyConfig(binding);
        t.parallelism = config.get(JobOptions.PARALLELISM);
        t.stageCapacity = config.get(JobOptions.STAGE_CAPACITY);
        t.capacityByStage.putAll(config.intFamily("stage.capacity."));
        t.stageTimeout = config.get(JobOptions.STAGE_TIMEOUT);
        t.timeoutByStage.putAll(config.durationFamily("stage.timeout."));
        t.executionPoolSize = config.get(JobOptions.EXECUTION_POOL_SIZE);
        t.executionCapacity = config.get(JobOptions.EXECUTION_CAPACITY);
        t.executionTimeout = config.get(JobOptions.EXECUTION_TIMEOUT);
        t.gatherTimeout = config.get(JobOptions.GATHER_TIMEOUT);
        t.historyTtl = config.get(JobOptions.HISTORY_TTL);
        t.feedbackWait = config.get(JobOptions.FEEDBACK_WAIT);
        t.historyLimits = new HistoryLimits(config.get(JobOptions.HISTORY_MAX_TURNS), config.get(JobOptions.HISTORY_MAX_BYTES));
        return new TopologyAnswering(t);
    }

    public TopologyConfig topology() {
        return topology;
    }

    @Override
    public DataStream<AnswerEvent> attach(DataStream<RequestContext> questions, DataStream<AnswerEvent> answersFeedback) {
        return AnswerTopology.attach(questions, answersFeedback, topology);
    }
}

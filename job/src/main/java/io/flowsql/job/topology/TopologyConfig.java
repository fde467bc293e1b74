package io.flowsql.job.topology;

import io.flowsql.engine.EngineConfig;
import io.flowsql.engine.StageRegistry;
import io.flowsql.flink.HistoryLimits;

import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The topology's knobs in one place: the engine every stage operator builds its stages from, the presets served (one
 * chain of operators each), operator parallelism, per-stage capacity and timeout, the candidate-execution pool, and the
 * dialogue operator's history TTL and feedback wait. Filled from the job options by {@code EngineWiring.topologyConfig}
 * in the job's root package, which this package does not reach back into.
 */
public class TopologyConfig implements Serializable {
    private static final long serialVersionUID = 1L;

    /** What every stage operator builds its shared engine from, where it runs; required. */
    public EngineConfig engine;
    /** The presets the job has a chain of operators for (requests of another preset are failed at routing). */
    public List<String> presets = new ArrayList<>(StageRegistry.presetNames());
    /** Parallelism of every topology operator; 0 or less keeps the environment's default. */
    public int parallelism = 0;
    /** Requests in flight per LLM stage operator instance, unless {@link #capacityByStage} says otherwise. */
    public int stageCapacity = 100;
    /** Per-stage overrides of {@link #stageCapacity}, by stage name. */
    public Map<String, Integer> capacityByStage = new HashMap<>();
    /** How long an LLM stage may take for one request (including the client's retries) before it fails the request. */
    public Duration stageTimeout = Duration.ofMinutes(6);
    /** Per-stage overrides of {@link #stageTimeout}, by stage name. */
    public Map<String, Duration> timeoutByStage = new HashMap<>();
    /** Keep stage outputs in input order (costs latency; dialogue order is kept by the dialogue operator anyway). */
    public boolean orderedStages = false;
    /** Threads running candidate SQL per task slot. */
    public int executionPoolSize = 4;
    /** Candidate records in flight per execution operator instance. */
    public int executionCapacity = 200;
    /** Flink-side limit for one candidate's execution (the executor has its own, shorter, query time limit). */
    public Duration executionTimeout = Duration.ofSeconds(30);
    /** How long the gather waits for a request's candidates before counting the missing ones as timed out. */
    public Duration gatherTimeout = Duration.ofSeconds(60);
    /** How long a dialogue's history is kept after its last change. */
    public Duration historyTtl = Duration.ofHours(24);
    /** How many of a dialogue's turns (and bytes) are kept and carried with each request. */
    public HistoryLimits historyLimits = HistoryLimits.defaults();
    /** How long a follow-up waits for the previous turn's answer to come back before it is released anyway. */
    public Duration feedbackWait = Duration.ofMinutes(5);
    /** Turns that may wait behind the one in flight per dialogue; more become dead letters (dialogue_queue_full). */
    public int maxWaitingTurns = io.flowsql.flink.DialogueContextFunction.DEFAULT_MAX_WAITING;

    public TopologyConfig() {}

    public TopologyConfig(EngineConfig engine) {
        this.engine = engine;
    }

    public int capacityOf(String stage) {
        return capacityByStage.getOrDefault(stage, stageCapacity);
    }

    public Duration timeoutOf(String stage) {
        return timeoutByStage.getOrDefault(stage, stageTimeout);
    }
}

package io.flowsql.engine;

import io.flowsql.flink.BoundStages;
import io.flowsql.flink.StageBinding;
import io.flowsql.flink.StagePlan;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageKind;
import io.flowsql.pipeline.strategy.StrategyCatalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;

/** Binds the job's stage operators to the shared engine of their TaskManager, built from one {@link EngineConfig}. */
public final class EngineStageBinding implements StageBinding {
    private static final long serialVersionUID = 1L;

    /** Stages that only compute; every other stage of the canonical order except the executions calls the LLM. */
    private static final Set<String> LOCAL = Set.of("opensearch.fewshot", "opensearch.align", "opensearch.vote",
            "answer.finalize");
    private static final Set<String> EXECUTIONS = Set.of("candidates.execute", "sqlfix.execute");

    private final EngineConfig config;

    public EngineStageBinding(EngineConfig config) {
        this.config = config;
    }

    @Override
    public List<StagePlan> plan() {
        List<StagePlan> plan = new ArrayList<>();
        for (String name : StrategyCatalog.canonicalOrder()) {
            plan.add(new StagePlan(name, kindOf(name)));
        }
        return plan;
    }

    static StageKind kindOf(String name) {
        if (EXECUTIONS.contains(name)) {
            return StageKind.EXECUTE_CANDIDATES;
        }
        return LOCAL.contains(name) ? StageKind.LOCAL : StageKind.LLM;
    }

    @Override
    public String defaultStrategy() {
        return config.defaultStrategy();
    }

    @Override
    public BoundStages bind() {
        EngineLease lease = EngineFactory.shared(config);
        return new BoundStages() {
            @Override
            public Stage find(String strategy, String stageName) {
                return lease.runtime().stage(strategy, stageName);
            }

            @Override
            public Executor work() {
                return lease.runtime().work();
            }

            @Override
            public void execute(String dbId, Candidate candidate) {
                lease.runtime().candidateRunner().run(dbId, candidate);
            }

            @Override
            public void close() {
                lease.close();
            }
        };
    }
}

package io.flowsql.flink;

import org.apache.flink.api.common.functions.RuntimeContext;

import java.io.Serializable;

/** The one stage a stage operator runs: shipped as binding + name, opened into an invoker where the operator runs, closed with it. */
final class BoundStage implements Serializable {
    private static final long serialVersionUID = 1L;

    private final StageBinding binding;
    private final String stageName;
    private transient BoundStages stages;

    BoundStage(StageBinding binding, String stageName) {
        this.binding = binding;
        this.stageName = stageName;
    }

    StageInvoker open(RuntimeContext runtime) throws Exception {
        stages = binding.bind();
        return new StageInvoker(stageName, binding.defaultStrategy(), stages,
                new StageMetrics(runtime.getMetricGroup(), stageName));
    }

    String stageName() {
        return stageName;
    }

    void close() throws Exception {
        if (stages != null) {
            stages.close();
            stages = null;
        }
    }
}

package io.flowsql.pipeline;

import java.util.List;

/** A named preset: the ordered stages that answer a question (the registry, io.flowsql.engine.StageRegistry, says which). */
public record Strategy(String name, List<NamedStage> stages) {
    public Strategy {
        stages = List.copyOf(stages);
    }
}

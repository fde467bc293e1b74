package io.flowsql.pipeline;

import java.util.List;

/** A named preset: the ordered stages that answer a question (see StrategyCatalog for the presets). */
public record Strategy(String name, List<Stage> stages) {
    public Strategy {
        stages = List.copyOf(stages);
    }
}

package io.flowsql.flink;

import io.flowsql.pipeline.StageKind;

import java.io.Serializable;

/** One stage of the canonical order as the topology places it: its name (the operator uid is "stage-" + name) and its kind. */
public record StagePlan(String name, StageKind kind) implements Serializable {

    public String uid() {
        return "stage-" + name;
    }
}

package io.flowsql.pipeline;

/** Where a stage runs in the Flink job. */
public enum StageKind {
    /** Calls the LLM: an async operator with its own capacity and timeout. */
    LLM,
    /** Executes every not-yet-executed candidate: the job fans these out to the candidate-execution side operator. */
    EXECUTE_CANDIDATES,
    /** Local computation only (vote, alignment, finalization): an ordinary map. */
    LOCAL
}

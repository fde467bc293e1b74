package io.flowsql.flink;

import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.Stage;

import java.util.concurrent.Executor;

/** The live stages of one operator instance, taken from a shared engine and given back on close. */
public interface BoundStages extends AutoCloseable {

    /** The stage named {@code stageName} as preset {@code strategy} runs it, or null when that preset does not run it. */
    Stage find(String strategy, String stageName);

    /** The engine's pool for stage work: a stage's own work runs there, never on a Flink task thread. */
    Executor work();

    /** Runs one candidate against its database (blocking, bounded by the executor's own time limit) and records the outcome in it. */
    void execute(String dbId, Candidate candidate);

    @Override
    void close() throws Exception;
}

package io.flowsql.benchmarks.throughput;

import io.flowsql.engine.EngineConfig;
import io.flowsql.engine.EngineFactory;
import io.flowsql.engine.EngineLease;
import io.flowsql.events.AnswerMapper;
import io.flowsql.events.QuestionEvent;
import io.flowsql.events.QuestionMapper;
import io.flowsql.pipeline.Pipeline;
import io.flowsql.pipeline.RequestContext;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The research-code baseline: the same stages, built from the same engine configuration as the job,
 * run by the plain Pipeline one question at a time.
 */
final class SequentialRun {
    private final EngineConfig engine;
    private final long simulatedLatencyMillis;
    private final ContextBytes contextBytes = new ContextBytes();

    /** {@code simulatedLatencyMillis}: the simulated LLM's latency per call, for each question's {@link LlmFloor}. */
    SequentialRun(EngineConfig engine, long simulatedLatencyMillis) {
        this.engine = engine;
        this.simulatedLatencyMillis = simulatedLatencyMillis;
    }

    /** What the questions' contexts weighed at their answers, for the state the job carries per question in flight. */
    ContextBytes contextBytes() {
        return contextBytes;
    }

    RunFigures run(String name, String preset, List<QuestionEvent> questions, LongSupplier llmCalls) throws Exception {
        try (EngineLease lease = EngineFactory.shared(engine)) {
            Pipeline pipeline = new Pipeline(lease.runtime().strategy(preset), lease.runtime().work());
            List<Long> latencies = new ArrayList<>();
            List<Long> floors = new ArrayList<>();
            List<Long> answeredAt = new ArrayList<>();
            List<RequestContext> answered = new ArrayList<>();
            long callsBefore = llmCalls.getAsLong();
            long start = System.currentTimeMillis();
            for (QuestionEvent q : questions) {
                long sent = System.currentTimeMillis();
                RequestContext ctx = QuestionMapper.toContext(q, "sequential", sent);
                pipeline.run(ctx).get();
                latencies.add(System.currentTimeMillis() - sent);
                answered.add(ctx);
                floors.add(LlmFloor.millis(AnswerMapper.fromContext(ctx).trace, simulatedLatencyMillis));
                answeredAt.add(System.currentTimeMillis() - start);
            }
            long wall = System.currentTimeMillis() - start;
            answered.forEach(contextBytes::measure); // outside the timed loop
            return new RunFigures(name, questions.size(), wall, llmCalls.getAsLong() - callsBefore, latencies, floors, answeredAt);
        }
    }
}

package io.flowsql.benchmarks.llm;

import io.flowsql.benchmarks.throughput.BenchmarkQuestions;
import io.flowsql.devstack.llama.LlamaServer;
import io.flowsql.devstack.llama.TinyGguf;
import io.flowsql.engine.EngineFactory;
import io.flowsql.engine.EngineLease;
import io.flowsql.events.QuestionEvent;
import io.flowsql.events.QuestionMapper;
import io.flowsql.job.EngineWiring;
import io.flowsql.job.JobConfig;
import io.flowsql.job.JobOptions;
import io.flowsql.pipeline.Pipeline;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.engine.StageDeclaration;
import io.flowsql.engine.StageRegistry;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import io.flowsql.simulator.LatencyModel;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-stage latency and tokens of the same Spider questions answered one at a time against the project's
 * simulated server (latency model of a 0.5B model under llama.cpp on 2 cores: 6.25 ms per prompt token, 32 ms
 * per generated token, 4 slots) and against llama.cpp's own server on the tiny random-weight model (built by
 * deploy/llama-server-build.sh), with each stage's reply schema sent as json_schema to both.
 *   deploy/bench.sh llm-servers [questions=8] [preset=full] [shared_data=../shared/data]
 */
public final class StageServerBenchmark {
    private StageServerBenchmark() {}

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        String preset = args.length > 1 ? args[1] : "full";
        Path sharedData = Path.of(args.length > 2 ? args[2] : "../shared/data");
        Path binary = LlamaServer.findBinary().orElseThrow(() -> new IllegalStateException(
                "llama-server is not built: run deploy/llama-server-build.sh first (or set LLAMA_SERVER)"));
        List<QuestionEvent> questions = BenchmarkQuestions.of(sharedData, preset, count, "bench-");
        System.out.printf("llm-servers: %d Spider questions, preset %s, one at a time, %d cores%n", count, preset,
                Runtime.getRuntime().availableProcessors());

        Map<String, StageFigures> simulated;
        try (SimulatedLlmServer simulator = SimulatedLlmServer.start(SimulatorConfig.builder().port(0)
                .latency(new LatencyModel(0, 6.25, 32, 0)).slots(4).recordRequests(false)
                .responders(AgentResponders.all()).oracle(GoldSqlOracle.load(sharedData.resolve("spider/dev.json")))
                .build())) {
            simulated = run(simulator.baseUrl(), preset, sharedData, questions);
        }
        Map<String, StageFigures> real;
        Path work = Path.of("work/llama");
        TinyGguf.Model model = TinyGguf.forPrompts(work.resolve("flowsql-tiny.gguf"));
        List<String> serverArgs = new ArrayList<>(model.serverArgs());
        serverArgs.addAll(List.of("-c", "16384", "--parallel", "4"));
        try (LlamaServer server = LlamaServer.start(binary, model.file(), work.resolve("bench-server.log"), serverArgs)) {
            real = run(server.baseUrl(), preset, sharedData, questions);
        }
        System.out.printf("%-24s | %-44s | %-44s%n", "", "simulated (0.5B latency model)", "llama-server (tiny random model)");
        System.out.printf("%-24s | %6s %8s %8s %9s %9s | %6s %8s %8s %9s %9s%n", "stage", "calls", "p50 ms", "mean ms",
                "prompt/q", "compl/q", "calls", "p50 ms", "mean ms", "prompt/q", "compl/q");
        for (String stage : StageRegistry.stagesOf(preset).stream().map(StageDeclaration::name).toList()) {
            System.out.printf("%-24s | %s | %s%n", stage, simulated.getOrDefault(stage, StageFigures.NONE).line(),
                    real.getOrDefault(stage, StageFigures.NONE).line());
        }
    }

    /** Runs the questions one at a time through the preset's stages; per-stage figures from the traces. */
    private static Map<String, StageFigures> run(String baseUrl, String preset, Path sharedData,
            List<QuestionEvent> questions) throws Exception {
        JobConfig config = JobConfig.of(Map.of(
                JobOptions.SHARED_DATA.key(), sharedData.toString(),
                JobOptions.LLM_BASE_URL.key(), baseUrl,
                JobOptions.LLM_MODEL.key(), "bench",
                JobOptions.LLM_STRUCTURED_OUTPUT.key(), "json-schema",
                JobOptions.LLM_REPLY_OVERLAY.key(), TinyGguf.replyOverlay(),
                JobOptions.LLM_SERVER_SLOTS.key(), "4"));
        Map<String, StageFigures> figures = new LinkedHashMap<>();
        try (EngineLease lease = EngineFactory.shared(EngineWiring.engineConfig(config))) {
            Pipeline pipeline = new Pipeline(lease.runtime().strategy(preset), lease.runtime().work());
            for (QuestionEvent q : questions) {
                RequestContext ctx = QuestionMapper.toContext(q, "bench", System.currentTimeMillis());
                pipeline.run(ctx).get();
                for (StageTrace t : ctx.trace) {
                    figures.computeIfAbsent(t.stage, s -> new StageFigures(questions.size())).add(t);
                }
            }
        }
        return figures;
    }

    /** One stage's latencies and tokens over a run. */
    private static final class StageFigures {
        static final StageFigures NONE = new StageFigures(1);
        private final int questions;
        private final List<Long> latencies = new ArrayList<>();
        private long calls;
        private long prompt;
        private long completion;

        StageFigures(int questions) {
            this.questions = questions;
        }

        void add(StageTrace t) {
            latencies.add(t.latencyMillis);
            calls += t.llmCalls;
            prompt += t.promptTokens;
            completion += t.completionTokens;
        }

        String line() {
            if (latencies.isEmpty()) {
                return String.format("%6s %8s %8s %9s %9s", "-", "-", "-", "-", "-");
            }
            List<Long> sorted = latencies.stream().sorted().toList();
            double mean = sorted.stream().mapToLong(Long::longValue).average().orElse(0);
            return String.format("%6d %8d %8.0f %9d %9d", calls, sorted.get(sorted.size() / 2), mean,
                    prompt / questions, completion / questions);
        }
    }
}

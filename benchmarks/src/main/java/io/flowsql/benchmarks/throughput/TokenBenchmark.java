package io.flowsql.benchmarks.throughput;

import io.flowsql.benchmarks.SmallInputs;
import io.flowsql.engine.EngineConfig;
import io.flowsql.job.EngineWiring;
import io.flowsql.job.JobConfig;
import io.flowsql.job.JobOptions;
import io.flowsql.simulator.Dialect;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.TokenCounts;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Tokens per question and the share of prompt tokens a server's prefix cache serves, per preset: Spider dev questions in
 * a seeded random order (all databases mixed), each preset's stages built from the job's default engine configuration,
 * one question at a time against the simulator, whose prefix-cache model (blocks of 16 tokens, LRU, the size printed)
 * counts what a vLLM- or llama.cpp-like server would reuse. The first question of each database and stage pays full
 * price; the figures include them.
 */
@Command(name = "tokens", mixinStandardHelpOptions = true,
        description = "Prompt/completion tokens and cached share per preset (deploy/bench.sh tokens).")
public final class TokenBenchmark implements Callable<Integer> {
    @Option(names = "--presets", split = ",", description = "presets (default ${DEFAULT-VALUE})")
    List<String> presets = List.of("mag-sql", "sqlfix", "opensearch", "mmsql", "full");
    @Option(names = "--questions", description = "questions per preset (default ${DEFAULT-VALUE})")
    int questions = 200;
    @Option(names = "--seed", description = "order of the questions (default ${DEFAULT-VALUE})")
    long seed = 7;
    @Option(names = "--prefix-cache-tokens", description = "size of the simulator's prefix cache (default ${DEFAULT-VALUE})")
    int prefixCacheTokens = SimulatorConfig.DEFAULT_PREFIX_CACHE_TOKENS;
    @Option(names = {"-D", "--job-option"}, description = "a job option key=value that differs from the job's default (repeatable; printed)")
    Map<String, String> overrides = new LinkedHashMap<>();
    @Option(names = "--shared-data", description = "benchmark data folder (default ${DEFAULT-VALUE})")
    Path sharedData = Path.of("../shared/data");

    public static void main(String[] args) {
        System.exit(new CommandLine(new TokenBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (SmallInputs.on()) {
            presets = SmallInputs.first(presets);
            questions = SmallInputs.cap(questions, 4);
            SmallInputs.announce("presets " + presets + ", " + questions + " questions");
        }
        System.out.printf("tokens: %d Spider dev questions per preset (seeded order %d, all databases mixed), one at a time; "
                        + "simulator prefix cache %d tokens (OpenAI usage: prompt_tokens_details.cached_tokens); "
                        + "job defaults%s; tokens ≈ 4 characters%n", questions, seed, prefixCacheTokens,
                overrides.isEmpty() ? "" : ", overridden by -D: " + overrides);
        System.out.printf("%-11s %10s %10s %8s %12s %10s%n", "preset", "calls/q", "prompt/q", "cached", "cached/q", "compl./q");
        try (SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder()
                .dialect(Dialect.OPENAI)
                .prefixCacheTokens(prefixCacheTokens)
                .recordRequests(false)
                .responders(AgentResponders.all())
                .oracle(GoldSqlOracle.load(sharedData.resolve("spider/dev.json")))
                .build())) {
            Map<String, String> options = new LinkedHashMap<>();
            options.put(JobOptions.SHARED_DATA.key(), sharedData.toString());
            options.put(JobOptions.LLM_BASE_URL.key(), llm.baseUrl());
            options.putAll(overrides);
            EngineConfig engine = EngineWiring.engineConfig(JobConfig.of(options));
            for (String preset : presets) {
                TokenCounts before = llm.tokenCounts();
                new SequentialRun(engine, 0).run(preset, preset,
                        BenchmarkQuestions.shuffled(sharedData, preset, questions, "tokens-" + preset + "-", seed),
                        llm::requestCount);
                TokenCounts t = llm.tokenCounts().minus(before);
                System.out.printf("%-11s %10.2f %10.0f %7.1f%% %12.0f %10.0f%n", preset, (double) t.completions() / questions,
                        (double) t.promptTokens() / questions, 100 * t.cachedShare(),
                        (double) t.cachedPromptTokens() / questions, (double) t.completionTokens() / questions);
            }
        }
        return 0;
    }
}

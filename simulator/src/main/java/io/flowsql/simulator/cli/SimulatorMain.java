package io.flowsql.simulator.cli;

import io.flowsql.simulator.Dialect;
import io.flowsql.simulator.Fault;
import io.flowsql.simulator.LatencyModel;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import io.flowsql.simulator.oracle.SqlErrorInjector;
import io.flowsql.simulator.replay.PredictionReplay;
import io.flowsql.simulator.replay.ReplayResponder;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Runs the simulated LLM server as its own process (deploy scripts, the demo); prints its base URL. */
@Command(name = "flowsql-simulator", mixinStandardHelpOptions = true,
        description = "Simulated OpenAI-compatible LLM server on 127.0.0.1 (every answer is marked simulated).")
public final class SimulatorMain implements Callable<Integer> {
    @Option(names = "--port", description = "port on 127.0.0.1, 0 for a free one (default ${DEFAULT-VALUE})")
    int port = 0;
    @Option(names = "--latency-ms", description = "fixed latency per call (default ${DEFAULT-VALUE})")
    long latencyMs = 0;
    @Option(names = "--ms-per-token", description = "latency per completion token (default ${DEFAULT-VALUE})")
    double msPerToken = 0;
    @Option(names = "--ms-per-prompt-token", description = "latency per prompt token (default ${DEFAULT-VALUE})")
    double msPerPromptToken = 0;
    @Option(names = "--jitter-ms", description = "uniform extra latency up to this (default ${DEFAULT-VALUE})")
    long jitterMs = 0;
    @Option(names = "--slots", description = "concurrent decoding slots; more requests queue (default ${DEFAULT-VALUE})")
    int slots = 64;
    @Option(names = "--rate-429", description = "share of calls answered 429 (default ${DEFAULT-VALUE})")
    double rate429 = 0;
    @Option(names = "--retry-after", description = "Retry-After seconds on a 429 (default ${DEFAULT-VALUE})")
    int retryAfter = 1;
    @Option(names = "--rate-500", description = "share of calls answered 500") double rate500 = 0;
    @Option(names = "--rate-503", description = "share of calls answered 503") double rate503 = 0;
    @Option(names = "--rate-hang", description = "share of calls that hang") double rateHang = 0;
    @Option(names = "--hang-ms", description = "how long a hang lasts (default ${DEFAULT-VALUE})") long hangMs = 60_000;
    @Option(names = "--rate-malformed", description = "share of calls with a broken JSON body") double rateMalformed = 0;
    @Option(names = "--rate-truncated", description = "share of calls with truncated content") double rateTruncated = 0;
    @Option(names = "--rate-empty", description = "share of calls with no choices") double rateEmpty = 0;
    @Option(names = "--dialect", description = "OPENAI, VLLM, OLLAMA or LLAMA_CPP (default ${DEFAULT-VALUE})")
    Dialect dialect = Dialect.OPENAI;
    @Option(names = "--oracle", description = "benchmark file(s) with gold SQL (Spider dev.json, BIRD, CoSQL)")
    List<Path> oracleFiles = List.of();
    @Option(names = "--error-rate", description = "share of oracle SQL answers given an error (default ${DEFAULT-VALUE})")
    double errorRate = 0;
    @Option(names = "--seed", description = "seed for faults, latency jitter and errors (default ${DEFAULT-VALUE})")
    long seed = 42;
    @Option(names = "--prefix-cache-tokens", description = "size of the modelled prefix cache; cached prompt tokens cost "
            + "no latency; 0 = off (default ${DEFAULT-VALUE})")
    int prefixCacheTokens = SimulatorConfig.DEFAULT_PREFIX_CACHE_TOKENS;
    @Option(names = "--api-key", description = "require this bearer key (optional)")
    String apiKey;
    @Option(names = "--fresh-draws", description = "give every SQL answer a new draw number, so no call repeats another's SQL")
    boolean freshDraws;
    @Option(names = "--replay", split = ",", description = "prediction files to answer SQL generation with (sample k of "
            + "question i = entry i of file k; .csv with a header, else one SQL a line); needs --replay-questions")
    List<Path> replayFiles = List.of();
    @Option(names = "--replay-questions", description = "the benchmark file giving the question order of --replay (Spider dev.json)")
    Path replayQuestions;

    private Path requireQuestions() {
        if (replayQuestions == null) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--replay needs --replay-questions");
        }
        return replayQuestions;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new SimulatorMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        SimulatorConfig.Builder builder = SimulatorConfig.builder()
                .port(port)
                .latency(new LatencyModel(latencyMs, msPerPromptToken, msPerToken, jitterMs))
                .slots(slots)
                .faultRate(Fault.RATE_LIMITED, rate429)
                .retryAfterSeconds(retryAfter)
                .faultRate(Fault.SERVER_ERROR, rate500)
                .faultRate(Fault.UNAVAILABLE, rate503)
                .faultRate(Fault.HANG, rateHang)
                .hangMillis(hangMs)
                .faultRate(Fault.MALFORMED_JSON, rateMalformed)
                .faultRate(Fault.TRUNCATED_CONTENT, rateTruncated)
                .faultRate(Fault.EMPTY_CHOICES, rateEmpty)
                .dialect(dialect)
                .seed(seed)
                .responders(replayFiles.isEmpty() ? AgentResponders.all()
                        : ReplayResponder.over(AgentResponders.all(), PredictionReplay.load(requireQuestions(), replayFiles)))
                .errorInjector(SqlErrorInjector.uniform(errorRate, seed))
                .requiredApiKey(apiKey)
                .recordRequests(false)
                .prefixCacheTokens(prefixCacheTokens)
                .freshDraws(freshDraws);
        if (!oracleFiles.isEmpty()) {
            builder.oracle(GoldSqlOracle.load(oracleFiles.toArray(Path[]::new)));
        }
        SimulatedLlmServer server = SimulatedLlmServer.start(builder.build());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }));
        System.out.println(server.baseUrl());
        System.out.flush();
        stopped.await();
        return 0;
    }
}

package io.flowsql.benchmarks.llm;

import io.flowsql.benchmarks.SmallInputs;
import io.flowsql.llm.ChatMessage;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.LlmClientConfig;
import io.flowsql.llm.OpenAiCompatibleClient;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.Dsl;

/**
 * Measures what the client itself costs per call: latencies of the full client against a
 * zero-latency simulated server, next to a bare async-http-client POST of the same body, at a few
 * concurrency levels; prints p50/p99 per call, their difference, sustained calls per second, and the process CPU
 * time per call (client, simulator and HTTP threads together: the difference between the two runs is what the
 * client costs in CPU).
 */
public final class LlmClientOverheadBenchmark {
    private static final int WARMUP_CALLS = 2_000;

    private LlmClientOverheadBenchmark() {}

    public static void main(String[] args) throws Exception {
        int calls = SmallInputs.cap(args.length > 0 ? Integer.parseInt(args[0]) : 5_000, 200);
        int warmupCalls = SmallInputs.cap(WARMUP_CALLS, 100);
        SmallInputs.announce(calls + " calls per level, " + warmupCalls + " warm-up calls");
        int[] levels = {1, 4, 16, 64};
        try (SimulatedLlmServer server = SimulatedLlmServer.start(
                        SimulatorConfig.builder().recordRequests(false).slots(256).build());
                OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(LlmClientConfig.builder(server.baseUrl())
                        .defaultModel("bench").maxConcurrency(64).callTimeout(Duration.ofSeconds(10)).build())
                        .callbackExecutor(Runnable::run).build();
                AsyncHttpClient bare = Dsl.asyncHttpClient(Dsl.config().setMaxConnectionsPerHost(64)
                        .setAcquireFreeChannelTimeout(10_000))) {
            ChatRequest request = ChatRequest.of("bench", List.of(
                    ChatMessage.system("### Task: bench\nAnswer briefly."),
                    ChatMessage.user("Database: concert_singer\nQuestion: How many singers do we have?")));
            byte[] body = ("{\"model\":\"bench\",\"messages\":[{\"role\":\"system\",\"content\":\"### Task: bench\\nAnswer "
                    + "briefly.\"},{\"role\":\"user\",\"content\":\"Database: concert_singer\\nQuestion: How many singers"
                    + " do we have?\"}]}").getBytes(StandardCharsets.UTF_8);
            String url = server.baseUrl() + "/chat/completions";
            Supplier<CompletableFuture<?>> viaClient = () -> client.chat(request);
            Supplier<CompletableFuture<?>> viaBare = () -> bare.preparePost(url)
                    .setHeader("Content-Type", "application/json").setBody(body).execute().toCompletableFuture();
            run(viaClient, warmupCalls, 8);
            run(viaBare, warmupCalls, 8);
            System.out.printf("LLM client overhead vs bare async-http-client, zero-latency simulator, %d calls per level%n",
                    calls);
            System.out.printf("%-11s | %-38s | %-38s | %-30s%n", "concurrency", "client p50/p99 us  calls/s  cpu us/call",
                    "bare p50/p99 us  calls/s  cpu us/call", "overhead p50/p99/cpu us");
            for (int level : levels) {
                Result mine = run(viaClient, calls, level);
                Result base = run(viaBare, calls, level);
                System.out.printf("%-11d | %8d %8d %9.0f %10.1f | %8d %8d %9.0f %10.1f | %9d %9d %9.1f%n", level,
                        mine.p50(), mine.p99(), mine.callsPerSecond(), mine.cpuMicrosPerCall(), base.p50(), base.p99(),
                        base.callsPerSecond(), base.cpuMicrosPerCall(), mine.p50() - base.p50(), mine.p99() - base.p99(),
                        mine.cpuMicrosPerCall() - base.cpuMicrosPerCall());
            }
        }
    }

    /** Latency percentiles in microseconds, throughput and process CPU microseconds per call of one run. */
    private record Result(long p50, long p99, double callsPerSecond, double cpuMicrosPerCall) {}

    /** CPU time of the whole process so far, in nanoseconds. */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static Result run(Supplier<CompletableFuture<?>> call, int calls, int concurrency) throws Exception {
        Semaphore inFlight = new Semaphore(concurrency);
        long[] micros = new long[calls];
        List<CompletableFuture<?>> all = new ArrayList<>(calls);
        long start = System.nanoTime();
        long cpuStart = processCpuNanos();
        for (int i = 0; i < calls; i++) {
            inFlight.acquire();
            int index = i;
            long began = System.nanoTime();
            all.add(call.get().whenComplete((r, e) -> {
                micros[index] = (System.nanoTime() - began) / 1_000;
                inFlight.release();
                if (e != null) {
                    throw new IllegalStateException("benchmark call failed", e);
                }
            }));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpuMicrosPerCall = (processCpuNanos() - cpuStart) / 1e3 / calls;
        Arrays.sort(micros);
        return new Result(micros[calls / 2], micros[(int) (calls * 0.99)], calls / seconds, cpuMicrosPerCall);
    }
}

package io.flowsql.simulator;

import java.util.Random;

/**
 * How long the simulated model "thinks": a fixed part plus a cost per prompt token (prefill) and per
 * completion token (decoding), with optional uniform jitter, like a real inference server.
 */
public record LatencyModel(long fixedMillis, double millisPerPromptToken, double millisPerCompletionToken,
        long jitterMillis) {

    public static final LatencyModel ZERO = new LatencyModel(0, 0, 0, 0);

    public LatencyModel {
        if (fixedMillis < 0 || millisPerPromptToken < 0 || millisPerCompletionToken < 0 || jitterMillis < 0) {
            throw new IllegalArgumentException("latency figures must be >= 0");
        }
    }

    public static LatencyModel fixed(long millis) {
        return new LatencyModel(millis, 0, 0, 0);
    }

    public long millisFor(int promptTokens, int completionTokens, Random random) {
        double base = fixedMillis + millisPerPromptToken * promptTokens + millisPerCompletionToken * completionTokens;
        long jitter = jitterMillis == 0 ? 0 : (long) (random.nextDouble() * jitterMillis);
        return Math.round(base) + jitter;
    }
}

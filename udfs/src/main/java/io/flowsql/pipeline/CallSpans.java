package io.flowsql.pipeline;

import java.util.Arrays;

/**
 * A stage's model calls as (start, duration) pairs in one {@code long[]}: when each call was sent (epoch ms) and how
 * long the stage waited for it (ms). Flat so that carrying it between operators and into checkpoints costs a few bytes
 * per call, and so the answer's trace can show which calls ran side by side (a critical path, not a sum).
 */
public final class CallSpans {
    private CallSpans() {}

    /** {@code spans} (null = none) with one more call appended. */
    public static long[] append(long[] spans, long startMillis, long durationMillis) {
        int n = spans == null ? 0 : spans.length;
        long[] more = spans == null ? new long[2] : Arrays.copyOf(spans, n + 2);
        more[n] = startMillis;
        more[n + 1] = Math.max(0, durationMillis);
        return more;
    }

    public static int count(long[] spans) {
        return spans == null ? 0 : spans.length / 2;
    }

    public static long start(long[] spans, int call) {
        return spans[2 * call];
    }

    public static long duration(long[] spans, int call) {
        return spans[2 * call + 1];
    }
}

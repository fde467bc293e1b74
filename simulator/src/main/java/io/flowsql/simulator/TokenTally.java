package io.flowsql.simulator;

import java.util.concurrent.atomic.LongAdder;

/** Prompt, cached prompt and completion tokens of the completions the server answered, since start or the last reset. */
final class TokenTally {
    private final LongAdder completions = new LongAdder();
    private final LongAdder prompt = new LongAdder();
    private final LongAdder cached = new LongAdder();
    private final LongAdder completion = new LongAdder();

    void add(int promptTokens, int cachedTokens, int completionTokens) {
        completions.increment();
        prompt.add(promptTokens);
        cached.add(cachedTokens);
        completion.add(completionTokens);
    }

    TokenCounts snapshot() {
        return new TokenCounts(completions.sum(), prompt.sum(), cached.sum(), completion.sum());
    }

    void reset() {
        completions.reset();
        prompt.reset();
        cached.reset();
        completion.reset();
    }
}

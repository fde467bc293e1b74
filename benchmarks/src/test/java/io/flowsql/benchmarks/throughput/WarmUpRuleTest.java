package io.flowsql.benchmarks.throughput;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class WarmUpRuleTest {

    @Test
    void stableRatesAloneDoNotEndTheWarmUpWhileTheJitIsBusy() {
        List<Double> rates = List.of(8.2, 37.5, 38.0, 37.0);
        assertTrue(WarmUpRule.stableRates(rates));
        assertFalse(WarmUpRule.settled(rates, List.of(0.9, 0.8, 0.7, 0.72)), "720 ms/s of compilation is not warm");
        assertTrue(WarmUpRule.settled(rates, List.of(0.9, 0.8, 0.3, 0.05)));
    }

    @Test
    void aQuietJitDoesNotEndTheWarmUpBeforeTheRatesAgree() {
        assertFalse(WarmUpRule.settled(List.of(8.2, 29.3, 38.0), List.of(0.0, 0.0, 0.0)));
        assertFalse(WarmUpRule.settled(List.of(30.0, 30.0), List.of(0.0, 0.0)), "fewer than three batches");
    }

    @Test
    void theJitLimitIsInclusive() {
        List<Double> rates = List.of(30.0, 31.0, 30.5);
        assertTrue(WarmUpRule.settled(rates, List.of(0.5, 0.2, WarmUpRule.MAX_JIT_SHARE)));
        assertFalse(WarmUpRule.settled(rates, List.of(0.5, 0.2, WarmUpRule.MAX_JIT_SHARE + 0.01)));
    }

    @Test
    void theWarmUpAsksEveryUsableQuestionBeforeItEnds() {
        List<Double> rates = List.of(30.0, 31.0, 30.5);
        List<Double> quiet = List.of(0.5, 0.2, 0.01);
        assertFalse(WarmUpRule.settled(rates, quiet, 384, 1034), "three batches of 128 reach three databases of twenty");
        assertTrue(WarmUpRule.settled(rates, quiet, 1034, 1034));
        assertFalse(WarmUpRule.settled(List.of(8.0, 30.0, 31.0), quiet, 2000, 1034), "coverage alone does not end it");
    }
}

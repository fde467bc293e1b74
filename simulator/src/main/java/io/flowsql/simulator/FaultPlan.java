package io.flowsql.simulator;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Decides, request by request, which fault (if any) to inject: first the scripted faults in order,
 * then random draws at the configured rates from a seeded generator.
 */
final class FaultPlan {
    private final Map<Fault, Double> rates;
    private final Deque<Fault> scripted;
    private final Random random;

    FaultPlan(Map<Fault, Double> rates, List<Fault> scripted, long seed) {
        this.rates = new EnumMap<>(Fault.class);
        this.rates.putAll(rates);
        this.rates.remove(Fault.NONE);
        double total = this.rates.values().stream().mapToDouble(Double::doubleValue).sum();
        if (total > 1.0 + 1e-9 || this.rates.values().stream().anyMatch(r -> r < 0)) {
            throw new IllegalArgumentException("fault rates must be >= 0 and sum to at most 1, got " + rates);
        }
        this.scripted = new ArrayDeque<>(scripted);
        this.random = new Random(seed);
    }

    synchronized Fault next() {
        if (!scripted.isEmpty()) {
            return scripted.poll();
        }
        double draw = random.nextDouble();
        double cumulative = 0;
        for (Map.Entry<Fault, Double> rate : rates.entrySet()) {
            cumulative += rate.getValue();
            if (draw < cumulative) {
                return rate.getKey();
            }
        }
        return Fault.NONE;
    }
}

package io.flowsql.benchmarks.eval.metrics;

import java.util.List;

/**
 * Tokens spent and what they would cost at given prices (currency units per one million prompt and
 * completion tokens), since hosted models bill the two at different rates.
 */
public record TokenCost(long promptTokens, long completionTokens, double pricePerMillionPrompt,
                        double pricePerMillionCompletion, int questions) {

    public static TokenCost of(List<ItemOutcome> outcomes, double pricePerMillionPrompt, double pricePerMillionCompletion) {
        long prompt = outcomes.stream().mapToLong(ItemOutcome::promptTokens).sum();
        long completion = outcomes.stream().mapToLong(ItemOutcome::completionTokens).sum();
        return new TokenCost(prompt, completion, pricePerMillionPrompt, pricePerMillionCompletion, outcomes.size());
    }

    public double cost() {
        return promptTokens / 1e6 * pricePerMillionPrompt + completionTokens / 1e6 * pricePerMillionCompletion;
    }

    public double tokensPerQuestion() {
        return questions == 0 ? 0 : (double) (promptTokens + completionTokens) / questions;
    }

    public double costPerQuestion() {
        return questions == 0 ? 0 : cost() / questions;
    }
}

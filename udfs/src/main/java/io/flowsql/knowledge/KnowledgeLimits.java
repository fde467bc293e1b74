package io.flowsql.knowledge;

import java.io.Serializable;

/**
 * The bounds of the knowledge book: entries and bytes kept per database (the oldest evicted first), and how many
 * entries one question's prompts may carry.
 */
public record KnowledgeLimits(int maxPerDatabase, long maxBytesPerDatabase, int perQuestion) implements Serializable {
    public KnowledgeLimits {
        if (maxPerDatabase < 1 || maxBytesPerDatabase < 1 || perQuestion < 0) {
            throw new IllegalArgumentException("knowledge limits must be positive (per question: zero or more)");
        }
    }

    public static KnowledgeLimits defaults() {
        return new KnowledgeLimits(500, 256 * 1024, 5);
    }
}

package io.flowsql.sql.render;

import java.util.Objects;

/**
 * A schema as prompt text, with its size in cl100k_base tokens so strategies can budget prompts. The size is counted
 * on first ask and kept: the prompts take only the text (a pruned or soft rendering per question), and counting is the
 * dearer half of a rendering (issue 41).
 */
public final class RenderedSchema {
    private final String text;
    private final TokenCounter counter;
    /** The count once made; -1 before. */
    private volatile int tokens = -1;

    RenderedSchema(String text, TokenCounter counter) {
        this.text = Objects.requireNonNull(text, "text");
        this.counter = Objects.requireNonNull(counter, "counter");
    }

    public String text() {
        return text;
    }

    /** The text's cl100k_base tokens, counted on the first call. */
    public int tokens() {
        int counted = tokens;
        if (counted < 0) {
            counted = counter.count(text);
            tokens = counted;
        }
        return counted;
    }

    @Override
    public String toString() {
        return "RenderedSchema[" + text.length() + " chars]";
    }
}

package io.flowsql.agents.common;

/** A generated text as a test's message shows it: control and non-ASCII characters as {@code \\uXXXX}. */
final class Escaped {
    private Escaped() {
    }

    static String text(String text) {
        StringBuilder out = new StringBuilder();
        text.chars().forEach(c -> out.append(c < 0x20 || c > 0x7e ? String.format("\\u%04x", c) : String.valueOf((char) c)));
        return out.toString();
    }
}

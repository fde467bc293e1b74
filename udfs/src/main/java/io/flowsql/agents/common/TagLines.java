package io.flowsql.agents.common;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Finds the lines that open a tagged section of a model's reply: optional spaces or tabs, one or more {@code #}, optional
 * spaces or tabs, one of the tags (ASCII letters matched in either case, longest tag first so {@code #SQL-like} is not
 * read as {@code #SQL}), optional spaces or tabs, then {@code :}. A line starts at the text's start or after a line
 * terminator ({@code \n}, {@code \r} not followed by {@code \n}, U+0085, U+2028, U+2029).
 *
 * <p>This is what the pattern {@code (?im)^[ \t]*#+[ \t]*(tag|...)[ \t]*:} finds, in one pass over the text: that
 * pattern tried its line-start anchor at every character, and on the 21 samples of each progressive-generation reply
 * it held 215 of the job threads' 1,249 samples in a profile of the sustained throughput run (issue 41, stop 56). {@code TagLinesTest} checks the two
 * agree on generated and real replies.
 */
final class TagLines {
    /** A section's opening line: where it starts, where its content starts (after the colon) and the tag as written. */
    record Opening(int start, int contentStart, String written) {}

    private final String[] longestFirst;

    TagLines(List<String> tags) {
        List<String> byLength = new ArrayList<>(tags);
        byLength.sort(Comparator.comparingInt(String::length).reversed());
        this.longestFirst = byLength.toArray(String[]::new);
    }

    /** Every opening line of {@code text}, in order. */
    List<Opening> openings(String text) {
        List<Opening> found = new ArrayList<>();
        int n = text.length();
        int lineStart = 0;
        while (lineStart < n) {
            Opening opening = openingAt(text, lineStart);
            if (opening != null) {
                found.add(opening);
            }
            lineStart = nextLineStart(text, lineStart);
        }
        return found;
    }

    /** The index after the line terminator that ends the line containing {@code from}; the text's length if none. */
    private static int nextLineStart(String text, int from) {
        int n = text.length();
        for (int i = from; i < n; i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\u0085' || c == '\u2028' || c == '\u2029') {
                return i + 1;
            }
            if (c == '\r') {
                return i + 1 < n && text.charAt(i + 1) == '\n' ? i + 2 : i + 1;
            }
        }
        return n;
    }

    private Opening openingAt(String text, int lineStart) {
        int n = text.length();
        int i = skipBlanks(text, lineStart);
        int hashes = i;
        while (i < n && text.charAt(i) == '#') {
            i++;
        }
        if (i == hashes) {
            return null;
        }
        i = skipBlanks(text, i);
        for (String tag : longestFirst) {
            if (startsWithIgnoringAsciiCase(text, i, tag)) {
                int colon = skipBlanks(text, i + tag.length());
                if (colon < n && text.charAt(colon) == ':') {
                    return new Opening(lineStart, colon + 1, text.substring(i, i + tag.length()));
                }
            }
        }
        return null;
    }

    private static int skipBlanks(String text, int from) {
        int i = from;
        while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    /** As a case-insensitive pattern without UNICODE_CASE compares: only ASCII letters fold. */
    private static boolean startsWithIgnoringAsciiCase(String text, int at, String tag) {
        if (at + tag.length() > text.length()) {
            return false;
        }
        for (int k = 0; k < tag.length(); k++) {
            char t = tag.charAt(k);
            char c = text.charAt(at + k);
            if (c != t && asciiLower(c) != asciiLower(t)) {
                return false;
            }
        }
        return true;
    }

    private static char asciiLower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
    }
}

package io.flowsql.agents.opensearch.align.model;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A check's pattern with words every match of it holds (in upper case; {@code "MAX|MIN"}: one of them): the pattern
 * runs only over a text that holds them all. Most candidates have no problem a check looks for, and a pattern that
 * cannot match still scans the whole query from every position, several microseconds a pattern (issue 41).
 * {@code GatedPatternTest} checks the words of every gated pattern against the matches on the gold queries.
 */
record GatedPattern(Pattern pattern, List<String> words) {

    static GatedPattern of(String regex, String... words) {
        return new GatedPattern(Pattern.compile(regex), List.of(words));
    }

    /** The text as {@link #matcher} and {@link #mayMatch} take it. */
    static String upper(String text) {
        return text.toUpperCase(Locale.ROOT);
    }

    /** Whether {@code upper} (a text in upper case, {@link #upper}) holds every word, so the pattern may match it. */
    boolean mayMatch(String upper) {
        for (String word : words) {
            if (!holdsOne(upper, word)) {
                return false;
            }
        }
        return true;
    }

    /** The pattern's matcher over {@code text}, or over nothing (it finds no match) when {@code upper} lacks a word. */
    Matcher matcher(String text, String upper) {
        return pattern.matcher(mayMatch(upper) ? text : "");
    }

    /** {@code text} with every match replaced ({@link Matcher#replaceAll(String)}); itself when {@code upper} lacks a word. */
    String replaceAll(String text, String upper, String replacement) {
        return mayMatch(upper) ? pattern.matcher(text).replaceAll(replacement) : text;
    }

    private static boolean holdsOne(String upper, String word) {
        for (String one : word.split("\\|")) {
            if (upper.contains(one)) {
                return true;
            }
        }
        return false;
    }
}

package io.flowsql.agents.common;

import java.util.ArrayList;
import java.util.List;

/**
 * The contents of a reply's Markdown code fences: three backticks, blanks, an info word (or none), blanks, a line
 * terminator, the content, three backticks. Found with {@code indexOf}, as the pattern
 * {@code ```[ \t]*(?:word|...)[ \t]*\R(.*?)```} (case-insensitive in ASCII, dot matching all) finds them with
 * {@code find()}: every start a pattern would try, the first closing backticks after the content's start, the next
 * search after them. The pattern tried its anchor at every character of every reply sample, and this runs on the LLM
 * client's threads for each of them.
 */
final class CodeFences {
    /** An SQL fence: the Markdown language words models write on SQL, as the replaced pattern listed them. */
    static final CodeFences SQL = new CodeFences("sqlite|sql");
    static final CodeFences JSON = new CodeFences("json");
    /** A fence with no info word. */
    static final CodeFences PLAIN = new CodeFences("");

    private static final String TICKS = "```";

    /** Lower-case ASCII info words, longer first where one starts another. */
    private final String[] words;

    /** {@code words}: the info words, separated by {@code |}, longer first where one starts another. */
    private CodeFences(String words) {
        this.words = words.split("\\|", -1);
    }

    /** Each fence's content, in order. */
    List<String> contents(String text) {
        List<String> out = new ArrayList<>(2);
        int from = 0;
        int open;
        while ((open = text.indexOf(TICKS, from)) >= 0) {
            int content = contentStart(text, open + TICKS.length());
            if (content < 0) {
                from = open + 1;
                continue;
            }
            int close = text.indexOf(TICKS, content);
            if (close < 0) {
                break; // no start after this one finds closing backticks either: theirs would come later still
            }
            out.add(text.substring(content, close));
            from = close + TICKS.length();
        }
        return out;
    }

    /** Where the content begins when blanks, one of the words, blanks and a line terminator follow {@code at}; else -1. */
    private int contentStart(String text, int at) {
        int i = blanks(text, at);
        for (String word : words) {
            if (startsWithAsciiIgnoringCase(text, i, word)) {
                int end = lineTerminatorEnd(text, blanks(text, i + word.length()));
                if (end >= 0) {
                    return end;
                }
            }
        }
        return -1;
    }

    private static int blanks(String text, int at) {
        int i = at;
        while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    /** {@code \R}: CR LF, or one of LF, VT, FF, CR, NEL, LS, PS; -1 when none is at {@code at}. */
    private static int lineTerminatorEnd(String text, int at) {
        if (at >= text.length()) {
            return -1;
        }
        char c = text.charAt(at);
        if (c == '\r' && at + 1 < text.length() && text.charAt(at + 1) == '\n') {
            return at + 2;
        }
        return c == '\n' || c == '\u000B' || c == '\f' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029'
                ? at + 1 : -1;
    }

    /** The pattern's case-insensitive match without UNICODE_CASE: a letter matches itself or its ASCII upper case. */
    private static boolean startsWithAsciiIgnoringCase(String text, int at, String lowerWord) {
        if (at + lowerWord.length() > text.length()) {
            return false;
        }
        for (int k = 0; k < lowerWord.length(); k++) {
            char c = text.charAt(at + k);
            char want = lowerWord.charAt(k);
            if (c != want && !(c >= 'A' && c <= 'Z' && c + ('a' - 'A') == want)) {
                return false;
            }
        }
        return true;
    }
}

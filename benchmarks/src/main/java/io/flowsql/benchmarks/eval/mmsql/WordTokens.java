package io.flowsql.benchmarks.eval.mmsql;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The word tokenizer MMSQL's {@code process_sql.tokenize} calls (nltk 3.8 {@code word_tokenize}: its improved Treebank
 * rules applied in their order, then a split on whitespace), for the text it sees: SQL whose quoted values were
 * already replaced by {@code __val_i_j__} keys. The text is taken as one sentence (Punkt splits only at {@code . ? !}
 * followed by a space and a new sentence, which SQL outside quotes does not contain).
 */
final class WordTokens {
    private static final int U = Pattern.UNICODE_CHARACTER_CLASS;
    private static final String CLOSERS = "\\]\\)}>\"'\u00bb\u201d\u2019 ";

    /** One substitution: a pattern and its replacement (Java syntax). */
    private record Rule(Pattern pattern, String replacement) {
        Rule(String regex, String replacement) {
            this(Pattern.compile(regex, U), replacement);
        }

        String apply(String text) {
            return pattern.matcher(text).replaceAll(replacement);
        }
    }

    private static final List<Rule> STARTING_QUOTES = List.of(
            new Rule("([\u00ab\u201c\u2018\u201e]|[`]+)", " $1 "),
            new Rule("^\"", "``"),
            new Rule("(``)", " $1 "),
            new Rule("([ \\(\\[{<])(\"|'{2})", "$1 `` "),
            new Rule("(?i)(')(?!re|ve|ll|m|t|s|d|n)(\\w)\\b", "$1 $2"));
    private static final List<Rule> PUNCTUATION = List.of(
            new Rule("([^\\.])(\\.)([" + CLOSERS + "]*)\\s*$", "$1 $2 $3 "),
            new Rule("([:,])([^\\d])", " $1 $2"),
            new Rule("([:,])$", " $1 "),
            new Rule("\\.{2,}", " $0 "),
            new Rule("[;@#$%&]", " $0 "),
            new Rule("([^\\.])(\\.)([\\]\\)}>\"']*)\\s*$", "$1 $2$3 "),
            new Rule("[?!]", " $0 "),
            new Rule("([^'])' ", "$1 ' "),
            new Rule("[*]", " $0 "));
    private static final Rule PARENS_BRACKETS = new Rule("[\\]\\[\\(\\)\\{\\}\\<\\>]", " $0 ");
    private static final Rule DOUBLE_DASHES = new Rule("--", " -- ");
    private static final List<Rule> ENDING_QUOTES = List.of(
            new Rule("([\u00bb\u201d\u2019])", " $1 "),
            new Rule("''", " '' "),
            new Rule("\"", " '' "),
            new Rule("([^' ])('[sS]|'[mM]|'[dD]|') ", "$1 $2 "),
            new Rule("([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ", "$1 $2 "));
    private static final List<Rule> CONTRACTIONS = List.of(
            new Rule("(?i)\\b(can)(not)\\b", " $1 $2 "),
            new Rule("(?i)\\b(d)('ye)\\b", " $1 $2 "),
            new Rule("(?i)\\b(gim)(me)\\b", " $1 $2 "),
            new Rule("(?i)\\b(gon)(na)\\b", " $1 $2 "),
            new Rule("(?i)\\b(got)(ta)\\b", " $1 $2 "),
            new Rule("(?i)\\b(lem)(me)\\b", " $1 $2 "),
            new Rule("(?i)\\b(more)('n)\\b", " $1 $2 "),
            new Rule("(?i)\\b(wan)(na)(?=\\s)", " $1 $2 "),
            new Rule("(?i) ('t)(is)\\b", " $1 $2 "),
            new Rule("(?i) ('t)(was)\\b", " $1 $2 "));

    private WordTokens() {}

    static List<String> tokenize(String text) {
        String s = text;
        for (Rule r : STARTING_QUOTES) {
            s = r.apply(s);
        }
        for (Rule r : PUNCTUATION) {
            s = r.apply(s);
        }
        s = PARENS_BRACKETS.apply(s);
        s = DOUBLE_DASHES.apply(s);
        s = " " + s + " ";
        for (Rule r : ENDING_QUOTES) {
            s = r.apply(s);
        }
        for (Rule r : CONTRACTIONS) {
            s = r.apply(s);
        }
        return pySplit(s);
    }

    /** Python's {@code str.split()}: runs of Unicode whitespace separate, no empty pieces. */
    static List<String> pySplit(String s) {
        List<String> out = new ArrayList<>();
        int start = -1;
        for (int i = 0; i < s.length(); i++) {
            if (pySpace(s.charAt(i))) {
                if (start >= 0) {
                    out.add(s.substring(start, i));
                    start = -1;
                }
            } else if (start < 0) {
                start = i;
            }
        }
        if (start >= 0) {
            out.add(s.substring(start));
        }
        return out;
    }

    private static boolean pySpace(char c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c) || c == '\u0085' || (c >= '\u001c' && c <= '\u001f');
    }
}

package io.flowsql.benchmarks.eval.semantics;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The text rewrites the official Spider test-suite evaluator (taoyds/test-suite-sql-eval, {@code evaluation.py
 * --etype exec} with its defaults) applies before it executes anything, one method per step, in the order it
 * applies them. Written from the evaluator's documented behaviour; see docs/EVALUATION.md for each step.
 */
public final class SpiderExecRewrites {
    private static final Pattern CUR_YEAR = Pattern.compile("YEAR\\s*\\(\\s*CURDATE\\s*\\(\\s*\\)\\s*\\)\\s*",
            Pattern.CASE_INSENSITIVE);

    private SpiderExecRewrites() {}

    /** Step 1 (prediction only): the placeholder {@code " value "} (lower case, between spaces) becomes {@code " 1 "}, wherever it is. */
    public static String plugValuePlaceholder(String prediction) {
        return prediction.replace(" value ", " 1 ");
    }

    /** Step 2 (both): operators split by a space are joined: {@code "> ="}, {@code "< ="}, {@code "! ="}. */
    public static String joinSplitOperators(String sql) {
        return sql.replace("> =", ">=").replace("< =", "<=").replace("! =", "!=");
    }

    /**
     * Step 3 (both; the default without {@code --keep_distinct}): the query is cut to its first statement (the evaluator
     * tokenizes it and keeps only the first statement its tokenizer finds, with that statement's {@code ;} and the
     * spaces or line comment after it), and every {@code DISTINCT} keyword is dropped, also inside {@code count(DISTINCT x)}.
     * Quoted text and comments are left alone.
     */
    public static String firstStatementWithoutDistinct(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int end = closing(sql, i + 1, c);
                out.append(sql, i, end);
                i = end;
            } else if (c == '[') {
                int close = sql.indexOf(']', i + 1);
                int end = close < 0 ? n : close + 1;
                out.append(sql, i, end);
                i = end;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int eol = sql.indexOf('\n', i);
                int end = eol < 0 ? n : eol;
                out.append(sql, i, end);
                i = end;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int close = sql.indexOf("*/", i + 2);
                int end = close < 0 ? n : close + 2;
                out.append(sql, i, end);
                i = end;
            } else if (Character.isLetter(c) || c == '_') {
                int end = i;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_' || sql.charAt(end) == '$')) {
                    end++;
                }
                String word = sql.substring(i, end);
                if (!word.equalsIgnoreCase("distinct")) {
                    out.append(word);
                }
                i = end;
            } else if (c == ';') {
                out.append(';');
                return out.append(trailingSpaceAndLineComments(sql, i + 1)).toString();
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** Step 4 (both, at execution): {@code YEAR(CURDATE())} becomes {@code 2020}. */
    public static String replaceCurrentYear(String sql) {
        return CUR_YEAR.matcher(sql).replaceAll("2020");
    }

    /**
     * Step 5: row order counts when the rewritten gold contains {@code order by} anywhere (lower-cased text, one space):
     * in a sub-query and inside a string literal too.
     */
    public static boolean orderMatters(String rewrittenGold) {
        return rewrittenGold.toLowerCase(Locale.ROOT).contains("order by");
    }

    /** Steps 1–3 on a prediction. */
    public static String prediction(String sql) {
        return firstStatementWithoutDistinct(joinSplitOperators(plugValuePlaceholder(sql)));
    }

    /** Steps 2–3 on a gold query. */
    public static String gold(String sql) {
        return firstStatementWithoutDistinct(joinSplitOperators(sql));
    }

    private static int closing(String sql, int from, char quote) {
        int i = from;
        while (i < sql.length()) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return sql.length();
    }

    /** What the tokenizer keeps with a finished statement: the spaces (not newlines) and a line comment right after it. */
    private static String trailingSpaceAndLineComments(String sql, int from) {
        int i = from;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == ' ' || c == '\t' || c == '\r') {
                i++;
            } else if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 ? sql.length() : eol + 1;
            } else {
                break;
            }
        }
        return sql.substring(from, i);
    }
}

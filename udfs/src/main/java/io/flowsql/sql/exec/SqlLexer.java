package io.flowsql.sql.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * A small SQLite-aware lexer so that statement boundaries and comments are found the way SQLite
 * finds them (quotes, brackets, backticks and both comment styles), not by naive string search.
 */
public final class SqlLexer {

    /** What the lexer found in one piece of SQL. */
    public record Scan(List<String> statements, List<String> comments, String codeOnly, String namesUnquoted) {}

    private SqlLexer() {}

    /**
     * Splits at top-level semicolons; statements that hold only whitespace and comments are dropped.
     * {@code codeOnly} is the text with comments replaced by spaces, literals by {@code ''} and quoted names by {@code _q_};
     * {@code namesUnquoted} is the same but with each quoted name written bare ({@code "load_extension"} becomes
     * {@code load_extension}, other characters than letters, digits and {@code _} as {@code _}), so a check on names
     * sees them however they were quoted.
     */
    public static Scan scan(String sql) {
        List<String> statements = new ArrayList<>();
        List<String> comments = new ArrayList<>();
        StringBuilder code = new StringBuilder(sql.length());
        StringBuilder names = new StringBuilder(sql.length());
        StringBuilder current = new StringBuilder();
        boolean currentHasCode = false;
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                end = end < 0 ? n : end;
                comments.add(sql.substring(i + 2, end));
                current.append(' ');
                code.append(' ');
                names.append(' ');
                i = end;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                int stop = end < 0 ? n : end + 2;
                comments.add(sql.substring(i + 2, end < 0 ? n : end));
                current.append(' ');
                code.append(' ');
                names.append(' ');
                i = stop;
            } else if (c == '\'' || c == '"' || c == '`' || c == '[') {
                char close = c == '[' ? ']' : c;
                int end = closingQuote(sql, i + 1, close);
                String token = sql.substring(i, end);
                current.append(token);
                code.append(c == '\'' ? "''" : "_q_");
                names.append(c == '\'' ? "''" : bare(token));
                currentHasCode = true;
                i = end;
            } else if (c == ';') {
                if (currentHasCode) {
                    statements.add(current.toString().trim());
                }
                current.setLength(0);
                currentHasCode = false;
                code.append(';');
                names.append(';');
                i++;
            } else {
                current.append(c);
                code.append(c);
                names.append(c);
                currentHasCode |= !Character.isWhitespace(c);
                i++;
            }
        }
        if (currentHasCode) {
            statements.add(current.toString().trim());
        }
        return new Scan(List.copyOf(statements), List.copyOf(comments), code.toString(), names.toString());
    }

    /** A quoted name without its quotes, as a plain word. */
    private static String bare(String quoted) {
        StringBuilder out = new StringBuilder(quoted.length());
        for (int k = 1; k < quoted.length() - 1; k++) {
            char ch = quoted.charAt(k);
            out.append(Character.isLetterOrDigit(ch) || ch == '_' ? ch : '_');
        }
        return out.length() == 0 ? "_q_" : out.toString();
    }

    /** Index just past the closing quote; a doubled quote inside is an escaped one. */
    private static int closingQuote(String sql, int from, char close) {
        int i = from;
        while (i < sql.length()) {
            if (sql.charAt(i) == close) {
                if (close != ']' && i + 1 < sql.length() && sql.charAt(i + 1) == close) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return sql.length();
    }
}

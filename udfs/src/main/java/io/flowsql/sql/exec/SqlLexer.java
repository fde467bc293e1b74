package io.flowsql.sql.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * A small SQLite-aware lexer so that statement boundaries and comments are found the way SQLite
 * finds them (quotes, brackets, backticks and both comment styles), not by naive string search.
 */
public final class SqlLexer {

    /** What the lexer found in one piece of SQL. */
    public record Scan(List<String> statements, List<String> comments, String codeOnly) {}

    private SqlLexer() {}

    /**
     * Splits at top-level semicolons; statements that hold only whitespace and comments are dropped.
     * {@code codeOnly} is the text with comments replaced by spaces, literals by {@code ''} and quoted names by {@code _q_}.
     */
    public static Scan scan(String sql) {
        List<String> statements = new ArrayList<>();
        List<String> comments = new ArrayList<>();
        StringBuilder code = new StringBuilder(sql.length());
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
                i = end;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                int stop = end < 0 ? n : end + 2;
                comments.add(sql.substring(i + 2, end < 0 ? n : end));
                current.append(' ');
                code.append(' ');
                i = stop;
            } else if (c == '\'' || c == '"' || c == '`' || c == '[') {
                char close = c == '[' ? ']' : c;
                int end = closingQuote(sql, i + 1, close);
                String token = sql.substring(i, end);
                current.append(token);
                code.append(c == '\'' ? "''" : "_q_");
                currentHasCode = true;
                i = end;
            } else if (c == ';') {
                if (currentHasCode) {
                    statements.add(current.toString().trim());
                }
                current.setLength(0);
                currentHasCode = false;
                code.append(';');
                i++;
            } else {
                current.append(c);
                code.append(c);
                currentHasCode |= !Character.isWhitespace(c);
                i++;
            }
        }
        if (currentHasCode) {
            statements.add(current.toString().trim());
        }
        return new Scan(List.copyOf(statements), List.copyOf(comments), code.toString());
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

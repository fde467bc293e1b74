package io.flowsql.sql.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * Statement boundaries, comments and code found on the engine's own tokens ({@link SqlTokens}), not by naive string
 * search: quotes, brackets, backticks, both comment styles and, where the engine has them, escape and dollar-quoted
 * strings and nested comments.
 */
public final class SqlLexer {

    /**
     * What the lexer found in one piece of SQL.
     *
     * @param tokens every token of the text (comments left out), statements separated by {@code ;} tokens
     * @param openComment a block comment was never closed
     */
    public record Scan(List<String> statements, List<String> comments, String codeOnly, String namesUnquoted,
            List<SqlTokens.Token> tokens, boolean openComment) {}

    private SqlLexer() {}

    /** As SQLite reads the text. */
    public static Scan scan(String sql) {
        return scan(sql, SqlTokens.Lexing.SQLITE);
    }

    /**
     * Splits at top-level semicolons; statements that hold only comments are dropped. {@code codeOnly} is the text's
     * tokens with comments as spaces, literals as {@code ''} and quoted names as {@code _q_}; {@code namesUnquoted} is
     * the same but with each quoted name written bare ({@code "load_extension"} becomes {@code load_extension}, other
     * characters than letters, digits and {@code _} as {@code _}), so a check on names sees them however they were quoted.
     */
    public static Scan scan(String sql, SqlTokens.Lexing lexing) {
        SqlTokens.Tokens lexed = SqlTokens.lex(sql, lexing);
        List<String> statements = new ArrayList<>();
        StringBuilder code = new StringBuilder(sql.length());
        StringBuilder names = new StringBuilder(sql.length());
        StringBuilder current = new StringBuilder();
        int previousEnd = 0;
        for (SqlTokens.Token token : lexed.tokens()) {
            String gap = gap(sql.substring(previousEnd, token.start()));
            code.append(gap);
            names.append(gap);
            previousEnd = token.end();
            if (token.kind() == SqlTokens.Kind.SEMICOLON) {
                if (!current.isEmpty()) {
                    statements.add(current.toString());
                }
                current.setLength(0);
                code.append(';');
                names.append(';');
                continue;
            }
            current.append(current.isEmpty() ? "" : gap).append(token.text());
            switch (token.kind()) {
                case STRING, SPECIAL_STRING -> {
                    code.append("''");
                    names.append("''");
                }
                case QUOTED_NAME -> {
                    code.append("_q_");
                    names.append(bare(token.text()));
                }
                default -> {
                    code.append(token.text());
                    names.append(token.text());
                }
            }
        }
        if (!current.isEmpty()) {
            statements.add(current.toString());
        }
        return new Scan(List.copyOf(statements), lexed.comments(), code.toString(), names.toString(), lexed.tokens(),
                lexed.openComment());
    }

    /** The text between two tokens: kept when it is only white space, else (comments) one space or line break. */
    private static String gap(String between) {
        if (between.isBlank()) {
            return between;
        }
        return between.indexOf('\n') >= 0 ? "\n" : " ";
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
}

package io.flowsql.sql.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * SQL split into tokens the way an engine's own lexer splits it ({@link Lexing} says how: which quotes exist, whether
 * {@code E'…'} and dollar-quoted strings exist, whether block comments nest, whether a backslash escapes inside
 * {@code '…'}), so the guard's rules look at words, strings and symbols the engine will see, never at raw text. A prefix
 * such as {@code E} counts as a string prefix only when the quote follows it immediately, as in the engine.
 */
public final class SqlTokens {

    /** What a token is. */
    public enum Kind {
        /** An unquoted word: a keyword or a name. */
        WORD,
        /** A quoted name: {@code "x"}, {@code `x`}, {@code [x]}. */
        QUOTED_NAME,
        /** A plain {@code '…'} literal (also {@code B'…'}, {@code X'…'}, {@code N'…'}: the same lexing). */
        STRING,
        /** A string whose lexing differs from {@code '…'}: {@code E'…'}, {@code U&'…'}, {@code $tag$…$tag$}. */
        SPECIAL_STRING,
        NUMBER,
        /** A parameter or variable: {@code $1}, {@code ?}, {@code @x}, {@code @@x}. */
        VARIABLE,
        SEMICOLON,
        SYMBOL
    }

    /** One token: its kind, its text as written and where it starts and ends in the statement. */
    public record Token(Kind kind, String text, int start, int end) {
        /** The word in lower case, or the quoted name without quotes in lower case; "" for other kinds. */
        public String name() {
            if (kind == Kind.WORD) {
                return text.toLowerCase(Locale.ROOT);
            }
            if (kind == Kind.QUOTED_NAME && text.length() >= 2) {
                return text.substring(1, text.length() - 1).toLowerCase(Locale.ROOT);
            }
            return "";
        }

        public boolean isWord(String word) {
            return kind == Kind.WORD && text.equalsIgnoreCase(word);
        }

        public boolean isSymbol(String symbol) {
            return kind == Kind.SYMBOL && text.equals(symbol);
        }
    }

    /**
     * How an engine reads SQL text.
     *
     * @param bracketNames {@code [x]} is a quoted name (SQLite), else {@code [} is a symbol (subscripts, lists)
     * @param backtickNames {@code `x`} is a quoted name
     * @param prefixedStrings {@code E'…'} and {@code U&'…'} exist, with backslash escapes (PostgreSQL, DuckDB)
     * @param dollarStrings {@code $tag$…$tag$} strings exist (PostgreSQL, DuckDB)
     * @param nestedComments block comments nest (PostgreSQL, DuckDB)
     * @param backslashInStrings a backslash escapes the next character inside {@code '…'} and {@code "…"} (MySQL)
     * @param hashComments {@code #} starts a comment to the end of the line, and {@code --} only when white space or a
     *     control character follows it ({@code 1--1} is {@code 1 - -1}) (MySQL)
     */
    public record Lexing(boolean bracketNames, boolean backtickNames, boolean prefixedStrings, boolean dollarStrings,
            boolean nestedComments, boolean backslashInStrings, boolean hashComments) {
        public static final Lexing SQLITE = new Lexing(true, true, false, false, false, false, false);
        public static final Lexing POSTGRES = new Lexing(false, false, true, true, true, false, false);
        public static final Lexing MYSQL = new Lexing(false, true, false, false, false, true, true);
    }

    /** The tokens of a text, its comments (their inner text), and whether a comment was left open or nested. */
    public record Tokens(List<Token> tokens, List<String> comments, boolean openComment) {}

    private SqlTokens() {}

    public static Tokens lex(String sql, Lexing lexing) {
        List<Token> tokens = new ArrayList<>();
        List<String> comments = new ArrayList<>();
        boolean open = false;
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            char next = i + 1 < n ? sql.charAt(i + 1) : '\0';
            if (Character.isWhitespace(c)) {
                i++;
            } else if ((c == '-' && next == '-' && (!lexing.hashComments() || i + 2 >= n || sql.charAt(i + 2) <= ' '))
                    || (c == '#' && lexing.hashComments())) {
                int end = sql.indexOf('\n', i);
                end = end < 0 ? n : end;
                comments.add(sql.substring(i + (c == '#' ? 1 : 2), end));
                i = end;
            } else if (c == '/' && next == '*') {
                int end = blockCommentEnd(sql, i, lexing.nestedComments());
                if (end < 0) {
                    open = true;
                    comments.add(sql.substring(i + 2));
                    i = n;
                } else {
                    comments.add(sql.substring(i + 2, end - 2));
                    i = end;
                }
            } else if (c == '\'') {
                int end = closing(sql, i + 1, '\'', lexing.backslashInStrings());
                tokens.add(new Token(Kind.STRING, sql.substring(i, end), i, end));
                i = end;
            } else if (c == '"' || (c == '`' && lexing.backtickNames())) {
                int end = closing(sql, i + 1, c, c == '"' && lexing.backslashInStrings());
                tokens.add(new Token(lexing.backslashInStrings() && c == '"' ? Kind.STRING : Kind.QUOTED_NAME,
                        sql.substring(i, end), i, end));
                i = end;
            } else if (c == '[' && lexing.bracketNames()) {
                int end = sql.indexOf(']', i + 1);
                end = end < 0 ? n : end + 1;
                tokens.add(new Token(Kind.QUOTED_NAME, sql.substring(i, end), i, end));
                i = end;
            } else if (c == '$' && lexing.dollarStrings() && dollarTagEnd(sql, i) > 0) {
                int tagEnd = dollarTagEnd(sql, i);
                String tag = sql.substring(i, tagEnd);
                int close = sql.indexOf(tag, tagEnd);
                int end = close < 0 ? n : close + tag.length();
                tokens.add(new Token(Kind.SPECIAL_STRING, sql.substring(i, end), i, end));
                i = end;
            } else if (Character.isLetter(c) || c == '_') {
                int end = i + 1;
                while (end < n && wordPart(sql.charAt(end), lexing)) {
                    end++;
                }
                String word = sql.substring(i, end);
                if (lexing.prefixedStrings() && end < n && prefix(word, sql, end) > 0) {
                    int quote = prefix(word, sql, end);
                    int close = closing(sql, quote + 1, '\'', true);
                    tokens.add(new Token(Kind.SPECIAL_STRING, sql.substring(i, close), i, close));
                    i = close;
                } else {
                    tokens.add(new Token(Kind.WORD, word, i, end));
                    i = end;
                }
            } else if (Character.isDigit(c) || (c == '.' && Character.isDigit(next))) {
                int end = i + 1;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '.'
                        || sql.charAt(end) == '_')) {
                    end++;
                }
                tokens.add(new Token(Kind.NUMBER, sql.substring(i, end), i, end));
                i = end;
            } else if (c == '$' || c == '?' || c == '@' || c == ':' && Character.isLetter(next)) {
                int end = i + 1;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_'
                        || sql.charAt(end) == '@' || sql.charAt(end) == '$')) {
                    end++;
                }
                tokens.add(new Token(Kind.VARIABLE, sql.substring(i, end), i, end));
                i = end;
            } else if (c == ';') {
                tokens.add(new Token(Kind.SEMICOLON, ";", i, i + 1));
                i++;
            } else {
                tokens.add(new Token(Kind.SYMBOL, String.valueOf(c), i, i + 1));
                i++;
            }
        }
        return new Tokens(List.copyOf(tokens), List.copyOf(comments), open);
    }

    private static boolean wordPart(char c, Lexing lexing) {
        return Character.isLetterOrDigit(c) || c == '_' || (c == '$' && !lexing.bracketNames());
    }

    /**
     * Where the quote of a prefixed string starts ({@code E'}, {@code U&'}), or -1: the quote must follow the prefix
     * immediately (PostgreSQL reads {@code grade = 'B'} and {@code e 'x'} as no escape string at all).
     */
    private static int prefix(String word, String sql, int end) {
        String w = word.toLowerCase(Locale.ROOT);
        if (w.equals("e") && sql.charAt(end) == '\'') {
            return end;
        }
        if (w.equals("u") && end + 1 < sql.length() && sql.charAt(end) == '&' && sql.charAt(end + 1) == '\'') {
            return end + 1;
        }
        return -1;
    }

    /** End (exclusive) of a {@code $tag$} opener at {@code i}, or -1 when none starts there. */
    private static int dollarTagEnd(String sql, int i) {
        if (i > 0 && (Character.isLetterOrDigit(sql.charAt(i - 1)) || sql.charAt(i - 1) == '_')) {
            return -1;
        }
        int j = i + 1;
        if (j < sql.length() && Character.isDigit(sql.charAt(j))) {
            return -1;
        }
        while (j < sql.length() && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
            j++;
        }
        return j < sql.length() && sql.charAt(j) == '$' ? j + 1 : -1;
    }

    /** End (exclusive) of a block comment opened at {@code i}, or -1 when it never closes. */
    private static int blockCommentEnd(String sql, int i, boolean nested) {
        int depth = 0;
        int j = i;
        while (j + 1 < sql.length()) {
            if (sql.charAt(j) == '/' && sql.charAt(j + 1) == '*') {
                depth = nested || depth == 0 ? depth + 1 : depth;
                j += 2;
            } else if (sql.charAt(j) == '*' && sql.charAt(j + 1) == '/') {
                depth--;
                j += 2;
                if (depth == 0) {
                    return j;
                }
            } else {
                j++;
            }
        }
        return -1;
    }

    /** Index just past the closing quote; a doubled quote (or, where the engine has it, a backslash) escapes one. */
    private static int closing(String sql, int from, char close, boolean backslash) {
        int i = from;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (backslash && c == '\\') {
                i += 2;
                continue;
            }
            if (c == close) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == close) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return sql.length();
    }

    /** True when a comment nests another opener: engines differ on nesting, so such text is never read two ways. */
    public static boolean nestsComments(List<String> comments) {
        return comments.stream().anyMatch(c -> c.contains("/*"));
    }
}

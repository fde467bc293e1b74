package io.flowsql.sql.engine;

import io.flowsql.sql.engine.SqlTokens.Kind;
import io.flowsql.sql.engine.SqlTokens.Token;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Guard rules read on an engine's tokens, shared by the profiles of engines that can write: a keyword counts only
 * where it is a keyword (a column named {@code set} or {@code lock} is a name), a string prefix only right before its
 * quote, a function only where a name is followed by {@code (}.
 */
public final class TokenRules {

    private TokenRules() {}

    /** Escape or dollar-quoted strings (their lexing differs from {@code '…'}: refused so no text is read two ways). */
    public static String specialString(List<Token> tokens, String engine) {
        for (Token t : tokens) {
            if (t.kind() == Kind.SPECIAL_STRING) {
                String shown = t.text().length() > 12 ? t.text().substring(0, 12) + "…" : t.text();
                return "escape and dollar-quoted strings (" + shown + ") are not allowed on " + engine + "; use '…' literals";
            }
        }
        return null;
    }

    /**
     * Clauses that make a query write or lock, found as keyword sequences: {@code INTO} (SELECT … INTO, INSERT INTO,
     * MERGE INTO), {@code DELETE FROM}, {@code UPDATE name SET}, {@code RETURNING}, and row locks {@code FOR UPDATE},
     * {@code FOR SHARE}, {@code FOR NO KEY UPDATE}, {@code FOR KEY SHARE}.
     */
    public static String writingClause(List<Token> tokens, String engine) {
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.kind() != Kind.WORD || after(tokens, i, ".")) {
                continue;
            }
            String word = t.name();
            String found = switch (word) {
                case "into", "returning" -> word.toUpperCase(Locale.ROOT);
                case "delete" -> next(tokens, i, 1).isWord("from") ? "DELETE" : null;
                case "update" -> updateSet(tokens, i) ? "UPDATE" : null;
                case "for" -> {
                    Token n = next(tokens, i, 1);
                    yield n.isWord("update") || n.isWord("share") || n.isWord("no") && next(tokens, i, 2).isWord("key")
                            || n.isWord("key") && next(tokens, i, 2).isWord("share") ? "FOR " + n.name().toUpperCase(Locale.ROOT) : null;
                }
                default -> null;
            };
            if (found != null) {
                return found + " is not allowed; only a plain SELECT or WITH query runs on " + engine;
            }
        }
        return null;
    }

    /** The first function called (a name followed by {@code (}) that {@code forbidden} matches, or null. */
    public static String forbiddenCall(List<Token> tokens, Predicate<String> forbidden, String engine) {
        for (int i = 0; i + 1 < tokens.size(); i++) {
            Token t = tokens.get(i);
            if ((t.kind() == Kind.WORD || t.kind() == Kind.QUOTED_NAME) && tokens.get(i + 1).isSymbol("(")
                    && forbidden.test(t.name())) {
                return "function " + t.name() + "() is not allowed on " + engine;
            }
        }
        return null;
    }

    /**
     * A string where a table belongs ({@code FROM '/etc/passwd'}, {@code JOIN 'x.csv'}, {@code FROM t, 'x'},
     * {@code FROM ('x')}): DuckDB reads it as a file.
     */
    public static String stringAsTable(List<Token> tokens, String engine) {
        boolean[] tablePlace = tablePlaces(tokens);
        for (int i = 0; i < tokens.size(); i++) {
            if (tokens.get(i).kind() == Kind.STRING && tablePlace[i]) {
                return "reading a file named by a string in FROM is not allowed on " + engine;
            }
        }
        return null;
    }

    /** Largest constant a value builder may be given ({@link #unboundedBuilder}). */
    public static final long BUILDER_LIMIT = 100_000;

    /**
     * A call that builds one huge value at once ({@code repeat('x', 500000000)}, a scalar {@code range(100000000)}):
     * inside one function call the engine checks no interrupt and counts no memory, so neither the watchdog nor the
     * memory limit could stop it. Such a call is allowed with small constants only ({@value #BUILDER_LIMIT} at most);
     * {@code streaming} names the ones that are fine where a table belongs ({@code FROM range(…)} streams its rows and
     * stops when interrupted).
     */
    public static String unboundedBuilder(List<Token> tokens, Set<String> builders, Set<String> streaming, String engine) {
        boolean[] tablePlace = tablePlaces(tokens);
        for (int i = 0; i + 1 < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.kind() != Kind.WORD || !tokens.get(i + 1).isSymbol("(") || !builders.contains(t.name())
                    || tablePlace[i] && streaming.contains(t.name())) {
                continue;
            }
            int depth = 0;
            for (int k = i + 1; k < tokens.size(); k++) {
                Token a = tokens.get(k);
                if (a.isSymbol("(")) {
                    depth++;
                } else if (a.isSymbol(")") && --depth == 0) {
                    break;
                } else if (!(a.kind() == Kind.STRING || a.isSymbol(",") || a.isSymbol("-")
                        || a.kind() == Kind.NUMBER && small(a.text()))) {
                    return t.name() + "() is allowed on " + engine + " with small constant arguments only (at most "
                            + BUILDER_LIMIT + "): one call builds its whole value at once, which the engine can neither"
                            + " interrupt nor bound" + (streaming.contains(t.name()) ? "; use FROM " + t.name() + "(…) for rows" : "");
                }
            }
        }
        return null;
    }

    private static boolean small(String number) {
        try {
            return Math.abs(Double.parseDouble(number)) <= BUILDER_LIMIT;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * For each token, whether it stands where a table or table function begins: right after {@code FROM}, {@code JOIN}
     * or a comma of a FROM list, or right inside a parenthesis that stands there.
     */
    static boolean[] tablePlaces(List<Token> tokens) {
        boolean[] place = new boolean[tokens.size()];
        boolean[] fromAtDepth = new boolean[tokens.size() + 2];
        int depth = 0;
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            Token before = i > 0 ? tokens.get(i - 1) : NONE;
            boolean afterFromWord = before.isWord("from") || before.isWord("join") || before.isSymbol(",");
            place[i] = fromAtDepth[depth] && afterFromWord
                    || before.isSymbol("(") && depth > 0 && fromAtDepth[depth - 1] && i > 1 && place[i - 1];
            if (t.isSymbol("(")) {
                depth++;
                fromAtDepth[depth] = false;
            } else if (t.isSymbol(")")) {
                depth = Math.max(0, depth - 1);
            } else if (t.kind() == Kind.WORD) {
                String w = t.name();
                if (w.equals("from") || w.equals("join")) {
                    fromAtDepth[depth] = true;
                } else if (CLAUSES.contains(w)) {
                    fromAtDepth[depth] = false;
                }
            }
        }
        return place;
    }

    private static final Set<String> CLAUSES = Set.of("select", "where", "group", "having", "order", "limit", "offset",
            "on", "using", "window", "qualify", "union", "except", "intersect", "values", "returning", "fetch");

    private static boolean updateSet(List<Token> tokens, int i) {
        for (int k = 1; k <= 6 && i + k < tokens.size(); k++) {
            Token n = tokens.get(i + k);
            if (n.isWord("set")) {
                return true;
            }
            if (n.kind() == Kind.SYMBOL && !n.isSymbol(".")) {
                return false;
            }
        }
        return false;
    }

    private static boolean after(List<Token> tokens, int i, String symbol) {
        return i > 0 && tokens.get(i - 1).isSymbol(symbol);
    }

    private static final Token NONE = new Token(Kind.SYMBOL, "", -1, -1);

    private static Token next(List<Token> tokens, int i, int ahead) {
        return i + ahead < tokens.size() ? tokens.get(i + ahead) : NONE;
    }

    /** True when text is refused because a backslash appears (where the engine's reading of it could differ). */
    public static String backslash(String sql, String engine) {
        return sql.indexOf('\\') >= 0 ? "a backslash is not allowed in a statement on " + engine : null;
    }

    /**
     * The rules every engine that can write shares: no backslash, no escape or dollar-quoted strings, no clause that
     * writes or locks, no call of a function {@code forbidden} names.
     */
    public static String serverRules(String sql, List<Token> tokens, Predicate<String> forbidden, String engine) {
        return first(() -> backslash(sql, engine), () -> specialString(tokens, engine), () -> writingClause(tokens, engine),
                () -> forbiddenCall(tokens, forbidden, engine));
    }

    /** JSqlParser read as PostgreSQL reads SQL ({@code [..]} a subscript, not a quote): PostgreSQL's and DuckDB's. */
    public static void postgresParser(net.sf.jsqlparser.parser.CCJSqlParser parser) {
        parser.withDialect(net.sf.jsqlparser.parser.AbstractJSqlParser.Dialect.POSTGRESQL).withSquareBracketQuotation(false);
    }

    /** Gives the session a fresh random seed, so a {@code setseed()} of one statement never reaches the next. */
    public static void reseed(java.sql.Connection connection) throws java.sql.SQLException {
        try (java.sql.PreparedStatement seed = connection.prepareStatement("SELECT setseed(?)")) {
            seed.setDouble(1, SEEDS.nextDouble() * 2 - 1);
            seed.execute();
        }
    }

    private static final java.security.SecureRandom SEEDS = new java.security.SecureRandom();

    /** The first refusal of several rules, or null. */
    @SafeVarargs
    public static String first(java.util.function.Supplier<String>... rules) {
        for (var rule : rules) {
            String refusal = rule.get();
            if (refusal != null) {
                return refusal;
            }
        }
        return null;
    }

}

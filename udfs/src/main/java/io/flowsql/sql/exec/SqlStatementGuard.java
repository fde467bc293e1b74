package io.flowsql.sql.exec;

import io.flowsql.sql.engine.SqlTokens;
import io.flowsql.sql.engine.SqlLexer;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.engine.SqlParsing;
import io.flowsql.sql.StatementBudget;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.Statements;
import net.sf.jsqlparser.statement.select.Select;

/**
 * Decides, before anything reaches SQLite, whether untrusted SQL is exactly one SELECT/WITH query:
 * the first line of defence, in front of the read-only, query-only connection. Bounded itself: text longer
 * than {@link #maxLength} or nested deeper than {@link #maxDepth} parentheses is refused before parsing
 * (JSqlParser's time grows quadratically with nesting), and the parse runs under a time limit that stops it (a parse
 * past it counts as "unknown syntax": SQLite's own check decides, as for syntax JSqlParser does not know).
 */
public final class SqlStatementGuard {

    /** Characters of SQL accepted at most (Spider and BIRD gold SQL stays under 2,000). */
    public static final int DEFAULT_MAX_LENGTH = 100_000;
    /** Parentheses nested at most (gold SQL stays under 10; 1,000 took JSqlParser 0.9 s, 10,000 took 174 s). */
    public static final int DEFAULT_MAX_DEPTH = 100;
    /** The parse's own time limit when the statement's budget leaves more. */
    public static final long DEFAULT_PARSE_MILLIS = 2_000;

    /** Functions that reach outside the database, compared with the parsed name however it was quoted. */
    static final Set<String> FORBIDDEN_FUNCTIONS = Set.of(
            "load_extension", "readfile", "writefile", "edit", "fts3_tokenizer", "sqlite_dbpage");
    private static final Pattern FORBIDDEN_FUNCTION = Pattern.compile(
            "\\b(" + String.join("|", FORBIDDEN_FUNCTIONS) + ")\\s*\\(", Pattern.CASE_INSENSITIVE);
    /** Statements refused by their first word with their own reason (the engine's session and file commands). */
    private static final Set<String> FORBIDDEN_FIRST_WORDS = Set.of("attach", "detach", "pragma", "vacuum", "reindex",
            "analyze", "savepoint", "release", "rollback", "commit", "begin");
    private static final Pattern WRITE_KEYWORD = Pattern.compile(
            "\\b(insert|update|delete|drop|create|alter|replace\\s+into|upsert)\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern HIDDEN_IN_COMMENT = Pattern.compile(
            ";|\\b(select|insert|update|delete|drop|create|alter|attach|detach|pragma|vacuum|replace)\\b",
            Pattern.CASE_INSENSITIVE);

    static {
        // JSqlParser's first parse loads and initialises a very large parser (seconds on a loaded machine): do it when
        // the guard class loads (building an executor), not inside the first statement's budget
        try {
            SqlParsing.parseStatements(
                    "WITH c AS (SELECT a, count(*) AS n FROM t WHERE b = 'x' GROUP BY a) SELECT * FROM c ORDER BY n DESC LIMIT 1",
                    60_000);
        } catch (TimeoutException e) {
            // only a warm-up
        }
    }

    /**
     * Verdicts by SQL text: the candidates of one question are often the same text, and the parse is the costly part.
     * Only verdicts that depend on the text alone are kept (not those decided by a parse or a budget that ran out).
     */
    private final Cache<String, GuardVerdict> verdicts = Caffeine.newBuilder().maximumSize(10_000).build();

    private final int maxLength;
    private final int maxDepth;
    private final long parseMillis;

    public SqlStatementGuard() {
        this(DEFAULT_MAX_LENGTH, DEFAULT_MAX_DEPTH, DEFAULT_PARSE_MILLIS);
    }

    public SqlStatementGuard(int maxLength, int maxDepth, long parseMillis) {
        if (maxLength <= 0 || maxDepth <= 0 || parseMillis <= 0) {
            throw new IllegalArgumentException("guard limits must be positive");
        }
        this.maxLength = maxLength;
        this.maxDepth = maxDepth;
        this.parseMillis = parseMillis;
    }

    public int maxLength() {
        return maxLength;
    }

    public int maxDepth() {
        return maxDepth;
    }

    /** Checks the text with a budget of its own (the parse's time limit); never throws for bad input. */
    public GuardVerdict check(String sql) {
        return check(sql, StatementBudget.startingNow(parseMillis));
    }

    /** Checks the text within what is left of the statement's budget; never throws for bad input. */
    public GuardVerdict check(String sql, StatementBudget budget) {
        return check(sql, budget, DatabaseEngine.embedded());
    }

    /** As {@link #check(String, StatementBudget)}, the statement parsed in the engine's dialect ({@link SqlParsing}). */
    public GuardVerdict check(String sql, StatementBudget budget, DatabaseEngine engine) {
        if (sql == null || sql.isBlank()) {
            return GuardVerdict.refused("empty statement");
        }
        if (sql.length() > maxLength) {
            return GuardVerdict.refused("statement of " + sql.length() + " characters; at most " + maxLength + " are accepted");
        }
        String key = engine.id() + '\u0000' + sql;
        GuardVerdict known = verdicts.getIfPresent(key);
        if (known != null) {
            return known;
        }
        Decision decision = decide(sql, budget, engine);
        if (decision.textAlone()) {
            verdicts.put(key, decision.verdict());
        }
        return decision.verdict();
    }

    /** A verdict, and whether it follows from the text alone (else a parse or a budget ran out: not remembered). */
    private record Decision(GuardVerdict verdict, boolean textAlone) {
        static Decision of(GuardVerdict verdict) {
            return new Decision(verdict, true);
        }
    }

    private Decision decide(String sql, StatementBudget budget, DatabaseEngine engine) {
        SqlLexer.Scan scan = SqlLexer.scan(sql, engine.profile().lexing());
        if (scan.statements().isEmpty()) {
            return Decision.of(GuardVerdict.refused("no statement, only comments"));
        }
        if (scan.statements().size() > 1) {
            return Decision.of(GuardVerdict.refused("several statements (" + scan.statements().size()
                    + "); exactly one SELECT is allowed"));
        }
        if (SqlTokens.nestsComments(scan.comments())) {
            return Decision.of(GuardVerdict.refused("a comment opens another comment; engines read nested comments differently"));
        }
        String hidden = hiddenStatement(scan.comments());
        if (hidden != null) {
            return Decision.of(GuardVerdict.refused("a comment hides SQL (" + hidden + "); comments may not contain statements"));
        }
        int depth = nestingDepth(scan.codeOnly());
        if (depth > maxDepth) {
            return Decision.of(GuardVerdict.refused("parentheses nested " + depth + " deep; at most " + maxDepth + " are accepted"));
        }
        Matcher function = FORBIDDEN_FUNCTION.matcher(scan.namesUnquoted());
        if (function.find()) {
            return Decision.of(forbiddenFunction(function.group(1)));
        }
        String code = scan.codeOnly();
        String firstWord = firstWord(scan.tokens());
        if (FORBIDDEN_FIRST_WORDS.contains(firstWord.toLowerCase(Locale.ROOT))) {
            return Decision.of(GuardVerdict.refused(firstWord + " is not allowed; only SELECT queries run"));
        }
        if (!firstWord.equals("SELECT") && !firstWord.equals("WITH")) {
            return Decision.of(GuardVerdict.refused((firstWord.isEmpty() ? "this statement" : firstWord)
                    + " is not allowed; only a SELECT or WITH query runs"));
        }
        String statement = scan.statements().get(0);
        long parseLimit = Math.min(parseMillis, budget.remainingMillis());
        if (parseLimit <= 0) {
            return new Decision(GuardVerdict.refused("the statement's time budget of " + budget.timeoutMillis()
                    + " ms ran out before parsing"), false);
        }
        Matcher write = WRITE_KEYWORD.matcher(code);
        Statements parsed;
        try {
            parsed = SqlParsing.parseStatements(statement, parseLimit, engine);
            if (parsed == null) {
                String requoted = requoted(statement, engine);
                if (!requoted.equals(statement)) {
                    parsed = SqlParsing.parseStatements(requoted, Math.min(parseMillis, budget.remainingMillis()), engine);
                }
            }
        } catch (TimeoutException e) {
            // past its limit the parse counts as unknown syntax: SQLite's own check decides
            return new Decision(write.find() ? writeRefusal(write) : GuardVerdict.unparsed(statement), false);
        }
        if (parsed == null) {
            return Decision.of(write.find() ? writeRefusal(write) : GuardVerdict.unparsed(statement));
        }
        List<Statement> list = parsed.size() == 0 ? List.of() : parsed;
        if (list.size() != 1) {
            return Decision.of(GuardVerdict.refused("several statements (" + list.size() + "); exactly one SELECT is allowed"));
        }
        if (!(list.get(0) instanceof Select)) {
            return Decision.of(GuardVerdict.refused(list.get(0).getClass().getSimpleName().toUpperCase(Locale.ROOT)
                    + " is not allowed; only a SELECT or WITH query runs"));
        }
        String called = FunctionNames.firstForbidden(list.get(0), FORBIDDEN_FUNCTIONS);
        if (called != null) {
            return Decision.of(forbiddenFunction(called));
        }
        String engineRefusal = engine.profile().parsedRefusal(list.get(0));
        if (engineRefusal != null) {
            return Decision.of(GuardVerdict.refused(engineRefusal));
        }
        return Decision.of(GuardVerdict.parsed(statement));
    }

    /** The first word of the statement (after opening parentheses), upper case; "" when it starts otherwise. */
    private static String firstWord(List<SqlTokens.Token> tokens) {
        for (SqlTokens.Token token : tokens) {
            if (!token.isSymbol("(")) {
                return token.kind() == SqlTokens.Kind.WORD ? token.text().toUpperCase(Locale.ROOT) : "";
            }
        }
        return "";
    }

    /**
     * The statement with the words JSqlParser reserves but the engine takes as names ({@code import}) quoted, for a
     * second parse only: the engine still runs the text as written.
     */
    static String requoted(String statement, DatabaseEngine engine) {
        Set<String> words = engine.profile().namesJSqlParserReserves();
        StringBuilder out = new StringBuilder(statement.length() + 8);
        int copied = 0;
        for (SqlTokens.Token token : SqlTokens.lex(statement, engine.profile().lexing()).tokens()) {
            if (token.kind() == SqlTokens.Kind.WORD && words.contains(token.name())) {
                out.append(statement, copied, token.start()).append(engine.profile().quoteName(token.text()));
                copied = token.end();
            }
        }
        return out.append(statement.substring(copied)).toString();
    }

    private static GuardVerdict writeRefusal(Matcher write) {
        return GuardVerdict.refused(write.group(1).toUpperCase(Locale.ROOT) + " is not allowed; only SELECT queries run");
    }

    private static GuardVerdict forbiddenFunction(String name) {
        return GuardVerdict.refused("function " + name.toLowerCase(Locale.ROOT) + "() is not allowed");
    }

    /** Deepest parenthesis nesting of the code (literals and quoted names already blanked out). */
    static int nestingDepth(String code) {
        int depth = 0;
        int max = 0;
        for (int i = 0; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '(') {
                max = Math.max(max, ++depth);
            } else if (c == ')') {
                depth = Math.max(0, depth - 1);
            }
        }
        return max;
    }

    private static String hiddenStatement(List<String> comments) {
        for (String comment : comments) {
            Matcher m = HIDDEN_IN_COMMENT.matcher(comment);
            if (m.find()) {
                return "'" + m.group().trim() + "'";
            }
        }
        return null;
    }
}

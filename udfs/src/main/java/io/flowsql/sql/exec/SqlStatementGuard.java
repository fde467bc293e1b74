package io.flowsql.sql.exec;

import io.flowsql.sql.StatementBudget;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
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
    private static final Pattern FORBIDDEN_KEYWORD = Pattern.compile(
            "\\b(attach|detach|pragma|vacuum|reindex|analyze|savepoint|release|rollback|commit|begin)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern WRITE_KEYWORD = Pattern.compile(
            "\\b(insert|update|delete|drop|create|alter|replace\\s+into|upsert)\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern HIDDEN_IN_COMMENT = Pattern.compile(
            ";|\\b(select|insert|update|delete|drop|create|alter|attach|detach|pragma|vacuum|replace)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern FIRST_WORD = Pattern.compile("^[\\s(]*([A-Za-z]+)");

    /** Parser threads shared by every guard; a parse past its limit is told to stop (JSqlParser's interrupted flag). */
    private static final ExecutorService PARSERS = parserThreads();

    static {
        // JSqlParser's first parse loads and initialises a very large parser (seconds on a loaded machine): do it when
        // the guard class loads (building an executor), not inside the first statement's budget
        parse("WITH c AS (SELECT a, count(*) AS n FROM t WHERE b = 'x' GROUP BY a) SELECT * FROM c ORDER BY n DESC LIMIT 1",
                60_000);
    }

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
        if (sql == null || sql.isBlank()) {
            return GuardVerdict.refused("empty statement");
        }
        if (sql.length() > maxLength) {
            return GuardVerdict.refused("statement of " + sql.length() + " characters; at most " + maxLength + " are accepted");
        }
        SqlLexer.Scan scan = SqlLexer.scan(sql);
        if (scan.statements().isEmpty()) {
            return GuardVerdict.refused("no statement, only comments");
        }
        if (scan.statements().size() > 1) {
            return GuardVerdict.refused("several statements (" + scan.statements().size() + "); exactly one SELECT is allowed");
        }
        String hidden = hiddenStatement(scan.comments());
        if (hidden != null) {
            return GuardVerdict.refused("a comment hides SQL (" + hidden + "); comments may not contain statements");
        }
        int depth = nestingDepth(scan.codeOnly());
        if (depth > maxDepth) {
            return GuardVerdict.refused("parentheses nested " + depth + " deep; at most " + maxDepth + " are accepted");
        }
        Matcher function = FORBIDDEN_FUNCTION.matcher(scan.namesUnquoted());
        if (function.find()) {
            return forbiddenFunction(function.group(1));
        }
        String code = scan.codeOnly();
        Matcher keyword = FORBIDDEN_KEYWORD.matcher(code);
        if (keyword.find()) {
            return GuardVerdict.refused(keyword.group(1).toUpperCase(Locale.ROOT) + " is not allowed; only SELECT queries run");
        }
        Matcher first = FIRST_WORD.matcher(code);
        String firstWord = first.find() ? first.group(1).toUpperCase(Locale.ROOT) : "";
        if (!firstWord.equals("SELECT") && !firstWord.equals("WITH")) {
            return GuardVerdict.refused((firstWord.isEmpty() ? "this statement" : firstWord)
                    + " is not allowed; only a SELECT or WITH query runs");
        }
        String statement = scan.statements().get(0);
        long parseLimit = Math.min(parseMillis, budget.remainingMillis());
        if (parseLimit <= 0) {
            return GuardVerdict.refused("the statement's time budget of " + budget.timeoutMillis() + " ms ran out before parsing");
        }
        Statements parsed = parse(statement, parseLimit);
        if (parsed == null) {
            Matcher write = WRITE_KEYWORD.matcher(code);
            if (write.find()) {
                return GuardVerdict.refused(write.group(1).toUpperCase(Locale.ROOT) + " is not allowed; only SELECT queries run");
            }
            return GuardVerdict.unparsed(statement);
        }
        List<Statement> list = parsed.size() == 0 ? List.of() : parsed;
        if (list.size() != 1) {
            return GuardVerdict.refused("several statements (" + list.size() + "); exactly one SELECT is allowed");
        }
        if (!(list.get(0) instanceof Select)) {
            return GuardVerdict.refused(list.get(0).getClass().getSimpleName().toUpperCase(Locale.ROOT)
                    + " is not allowed; only a SELECT or WITH query runs");
        }
        String called = FunctionNames.firstForbidden(list.get(0), FORBIDDEN_FUNCTIONS);
        if (called != null) {
            return forbiddenFunction(called);
        }
        return GuardVerdict.parsed(statement);
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

    /**
     * The parsed statements, or null when JSqlParser does not know the syntax (GLOB, ==, IS NOT ...) or did not finish
     * within its limit (it is then told to stop): SQLite decides then, by preparing it (linear time, its own depth
     * limit) and reading its program for writes, while the text checks above still hold.
     */
    private static Statements parse(String statement, long limitMillis) {
        try {
            return CCJSqlParserUtil.parseStatements(statement, PARSERS,
                    parser -> parser.withSquareBracketQuotation(true).withTimeOut(limitMillis));
        } catch (JSQLParserException | RuntimeException | StackOverflowError e) {
            return null;
        }
    }

    /** A thread per parse in flight (callers bound how many: the executor's pools); idle threads end after 30 s. */
    private static ExecutorService parserThreads() {
        AtomicInteger count = new AtomicInteger();
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "flowsql-sql-guard-parse-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
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

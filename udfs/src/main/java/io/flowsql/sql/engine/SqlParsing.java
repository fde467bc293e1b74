package io.flowsql.sql.engine;

import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.Statements;

/**
 * JSqlParser with its parse budget (the parser's own time-out, which stops a runaway parse) on one shared pool of
 * daemon threads. {@code CCJSqlParserUtil.parse(sql, consumer)} starts and stops a new thread for every statement;
 * the agents parse each candidate several times (every alignment rule), so those threads were a large part of the
 * job's CPU per question. An idle thread ends after 5 s, so none outlives a job by more (a live thread keeps the
 * job's class loader).
 */
public final class SqlParsing {
    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final ExecutorService POOL = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 5, TimeUnit.SECONDS,
            new SynchronousQueue<>(), runnable -> {
                Thread thread = new Thread(runnable, "flowsql-sql-parse-" + THREADS.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            });

    private SqlParsing() {}

    /** The statement (SQLite/SQL Server square-bracket quotes allowed), or empty when JSqlParser cannot parse it in time. */
    public static Optional<Statement> parse(String sql) {
        return parse(sql, DatabaseEngine.SQLITE);
    }

    /** The statement read in the engine's dialect ({@link #dialect}), or empty when JSqlParser cannot parse it in time. */
    public static Optional<Statement> parse(String sql, DatabaseEngine engine) {
        try {
            return Optional.ofNullable(CCJSqlParserUtil.parse(sql, POOL, dialect(engine)));
        } catch (JSQLParserException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** JSqlParser's settings for an engine's SQL: its profile's ({@link io.flowsql.sql.engine.EngineProfile#parserSettings}). */
    static Consumer<CCJSqlParser> dialect(DatabaseEngine engine) {
        return engine.profile()::parserSettings;
    }

    /**
     * Every statement of the text, parsed within {@code limitMillis} on the shared pool; null when JSqlParser does not
     * know the syntax.
     *
     * @throws TimeoutException when the parse passed its limit (JSqlParser is then told to stop: its interrupted flag)
     */
    public static Statements parseStatements(String sql, long limitMillis) throws TimeoutException {
        return parseStatements(sql, limitMillis, DatabaseEngine.SQLITE);
    }

    /** As {@link #parseStatements(String, long)}, read in the engine's dialect. */
    public static Statements parseStatements(String sql, long limitMillis, DatabaseEngine engine) throws TimeoutException {
        Consumer<CCJSqlParser> settings = dialect(engine);
        try {
            return CCJSqlParserUtil.parseStatements(sql, POOL,
                    parser -> settings.andThen(p -> p.withTimeOut(limitMillis)).accept(parser));
        } catch (JSQLParserException e) {
            if (e.getCause() instanceof TimeoutException timeout) {
                throw timeout;
            }
            return null;
        } catch (RuntimeException | StackOverflowError e) {
            return null;
        }
    }
}

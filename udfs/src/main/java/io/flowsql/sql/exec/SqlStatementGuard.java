package io.flowsql.sql.exec;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.Statements;
import net.sf.jsqlparser.statement.select.Select;

/**
 * Decides, before anything reaches SQLite, whether untrusted SQL is exactly one SELECT/WITH query:
 * the first line of defence, in front of the read-only, query-only connection.
 */
public final class SqlStatementGuard {

    private static final Pattern FORBIDDEN_FUNCTION = Pattern.compile(
            "\\b(load_extension|readfile|writefile|edit|fts3_tokenizer|sqlite_dbpage)\\s*\\(",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern FORBIDDEN_KEYWORD = Pattern.compile(
            "\\b(attach|detach|pragma|vacuum|reindex|analyze|savepoint|release|rollback|commit|begin)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern WRITE_KEYWORD = Pattern.compile(
            "\\b(insert|update|delete|drop|create|alter|replace\\s+into|upsert)\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern HIDDEN_IN_COMMENT = Pattern.compile(
            ";|\\b(select|insert|update|delete|drop|create|alter|attach|detach|pragma|vacuum|replace)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern FIRST_WORD = Pattern.compile("^[\\s(]*([A-Za-z]+)");

    /** Verdicts by SQL text: the candidates of one question are often the same text, and the parse is the costly part. */
    private final Cache<String, GuardVerdict> verdicts = Caffeine.newBuilder().maximumSize(10_000).build();

    /** Checks the text; never throws for bad input. The verdict depends on the text only, so it is remembered. */
    public GuardVerdict check(String sql) {
        if (sql == null || sql.isBlank()) {
            return GuardVerdict.refused("empty statement");
        }
        return verdicts.get(sql, this::decide);
    }

    private GuardVerdict decide(String sql) {
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
        String code = scan.codeOnly();
        Matcher function = FORBIDDEN_FUNCTION.matcher(code);
        if (function.find()) {
            return GuardVerdict.refused("function " + function.group(1).toLowerCase(Locale.ROOT) + "() is not allowed");
        }
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
        Statements parsed = parseOrNull(statement);
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
        return GuardVerdict.parsed(statement);
    }

    /** Null when JSqlParser does not know the syntax (GLOB, ==, IS NOT ...): SQLite decides then. */
    private static Statements parseOrNull(String statement) {
        try {
            return CCJSqlParserUtil.newParser(statement).withSquareBracketQuotation(true).Statements();
        } catch (Exception | StackOverflowError e) {
            return null;
        } catch (Error e) {
            if (e.getClass().getSimpleName().contains("TokenMgr")) {
                return null;
            }
            throw e;
        }
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

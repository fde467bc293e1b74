package io.flowsql.access;

import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.engine.SqlParsing;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.Select;

/**
 * Checks a statement against what its tenant may read, before it runs, reading it as the target engine reads it
 * ({@link SqlParsing#parse(String, DatabaseEngine)}):
 * <ul>
 *   <li>only a query ({@code SELECT}, {@code WITH}, set operations) is checked; anything else, or text the parser
 *       cannot read in the engine's dialect, is refused (which tables it reads is unknown);</li>
 *   <li>every relation it reads must be allowed, found scope by scope ({@link StatementReading}: a {@code WITH} name
 *       hides a table only inside the query that declares it);</li>
 *   <li>the text must read the same tables in every other dialect the parser reads it in (a {@code [..]} that is a
 *       quoted name for SQLite and a subscript elsewhere would let a sub-query hide in it);</li>
 *   <li>catalog relations ({@code information_schema}, {@code pg_catalog}, {@code sqlite_*}, {@code pg_*},
 *       {@code duckdb_*}, {@code pragma_*}) are refused even when a schema-wide rule would allow them;</li>
 *   <li>every function must be on the engine's allow-list ({@code access/functions/<engine>.txt}): functions that run
 *       SQL from text, take a relation name as text or read the catalog are never listed; every cast must be to a
 *       listed type ({@code access/cast-types.txt}; no {@code ::regclass}, no table row types).</li>
 * </ul>
 * {@link #feedback} is what stages show the model ({@code io.flowsql.pipeline.StageSql}); {@link #refusal} names no
 * table.
 */
public final class TableGate {
    public static final String REFUSAL = "forbidden: the SQL reads a table this question may not use";

    /** The feedback for a statement whose tables cannot be told (a parse error, as the engine's prompts read it). */
    public static final String UNREADABLE = "parse error: the statement could not be read to check which tables it uses";

    /** The feedback for a statement that reads differently in another SQL dialect. */
    public static final String AMBIGUOUS = "parse error: the statement reads different tables depending on the SQL "
            + "dialect; write it without [brackets] or other dialect-specific quoting";

    /** The feedback for a statement other than a query. */
    public static final String NOT_A_QUERY = "forbidden: only a query (SELECT) may run for this question";

    private static final Pattern CATALOG = Pattern.compile(
            "(^|.*\\.)(information_schema|pg_catalog)(\\..*|$)|(^|.*\\.)(sqlite_|pg_|duckdb_|pragma_)[^.]*$");

    private TableGate() {}

    /** Empty when the statement may run on {@code engine}; else why not, naming no table. */
    public static Optional<String> refusal(String sql, Predicate<String> allowed, DatabaseEngine engine) {
        return feedback(sql, allowed, engine).map(why -> REFUSAL);
    }

    /**
     * Empty when the statement may run on {@code engine}; else feedback for the model that wrote it, worded as a
     * database's error and naming only what the statement itself names: {@code table X is not available} for the first
     * relation it reads that is not allowed (whether X exists or not: the answer is the same), {@code function f is
     * not available}, {@code cast to t is not available}, or a parse error when which tables it reads cannot be told.
     */
    public static Optional<String> feedback(String sql, Predicate<String> allowed, DatabaseEngine engine) {
        Optional<Statement> statement = SqlParsing.parse(sql, engine);
        if (statement.isEmpty()) {
            return Optional.of(UNREADABLE);
        }
        if (!(statement.get() instanceof Select)) {
            return Optional.of(NOT_A_QUERY);
        }
        Optional<StatementReading> read = read(statement.get());
        if (read.isEmpty()) {
            return Optional.of(UNREADABLE);
        }
        StatementReading reading = read.get();
        for (DatabaseEngine other : DatabaseEngine.values()) {
            if (other == engine) {
                continue;
            }
            Optional<Statement> parsed = SqlParsing.parse(sql, other);
            if (parsed.isEmpty()) {
                continue;  // not SQL in that dialect: nothing to read differently
            }
            Optional<Set<String>> elsewhere = read(parsed.get()).map(r -> lower(r.relations));
            if (elsewhere.isEmpty() || !elsewhere.get().equals(lower(reading.relations))) {
                return Optional.of(AMBIGUOUS);
            }
        }
        for (String relation : reading.relations) {
            if (CATALOG.matcher(relation.toLowerCase(Locale.ROOT)).matches() || !allowed.test(relation)) {
                return Optional.of(unavailable(relation));
            }
        }
        Set<String> functions = NameList.functions(engine);
        for (String function : reading.functions) {
            if (!functions.contains(function)) {
                return Optional.of("function " + function + " is not available");
            }
        }
        Set<String> types = NameList.castTypes();
        for (String type : reading.castTypes) {
            if (!types.contains(type)) {
                return Optional.of("cast to " + (type.isEmpty() ? "this type" : type) + " is not available");
            }
        }
        return Optional.empty();
    }

    /** The feedback for a statement that reads {@code table}, which the question may not use. */
    public static String unavailable(String table) {
        return "table " + table + " is not available";
    }

    private static Optional<StatementReading> read(Statement statement) {
        try {
            return Optional.of(StatementReading.of(statement));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Set<String> lower(Set<String> names) {
        return Set.copyOf(names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList());
    }
}

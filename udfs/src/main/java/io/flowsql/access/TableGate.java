package io.flowsql.access;

import io.flowsql.sql.SqlParsing;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * Checks a statement's tables against what its tenant may see, before it runs: every table the statement reads
 * (common table expressions excluded) must be allowed, and a statement the parser cannot read is refused (which
 * tables it reads is unknown). {@link #feedback} is what stages show the model ({@code io.flowsql.pipeline.StageSql});
 * {@link #refusal} names no table.
 */
public final class TableGate {
    public static final String REFUSAL = "forbidden: the SQL reads a table this question may not use";

    /** The feedback for a statement whose tables cannot be told (a parse error, as the engine's prompts read it). */
    public static final String UNREADABLE = "parse error: the statement could not be read to check which tables it uses";

    private TableGate() {}

    /** Empty when the statement may run; else why not, naming no table. */
    public static Optional<String> refusal(String sql, Predicate<String> allowed) {
        return feedback(sql, allowed).map(why -> REFUSAL);
    }

    /**
     * Empty when the statement may run; else feedback for the model that wrote it, worded as a database's error and
     * naming only what the statement itself names: {@code table X is not available} for the first table it reads
     * that is not allowed (whether X exists or not: the answer is the same), or a parse error when which tables it
     * reads cannot be told.
     */
    public static Optional<String> feedback(String sql, Predicate<String> allowed) {
        Optional<Statement> statement = SqlParsing.parse(sql);
        if (statement.isEmpty()) {
            return Optional.of(UNREADABLE);
        }
        Set<String> tables;
        try {
            tables = new TablesNamesFinder<Void>().getTables(statement.get());
        } catch (RuntimeException e) {
            return Optional.of(UNREADABLE);
        }
        for (String table : tables) {
            String name = unquoted(table);
            if (!allowed.test(name)) {
                return Optional.of(unavailable(name));
            }
        }
        return Optional.empty();
    }

    /** The feedback for a statement that reads {@code table}, which the question may not use. */
    public static String unavailable(String table) {
        return "table " + table + " is not available";
    }

    private static String unquoted(String name) {
        return name.replace("\"", "").replace("`", "").replace("[", "").replace("]", "");
    }
}

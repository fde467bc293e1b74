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
 * tables it reads is unknown). The refusal names no table.
 */
public final class TableGate {
    public static final String REFUSAL = "forbidden: the SQL reads a table this question may not use";

    private TableGate() {}

    /** Empty when the statement may run; else why not. */
    public static Optional<String> refusal(String sql, Predicate<String> allowed) {
        Optional<Statement> statement = SqlParsing.parse(sql);
        if (statement.isEmpty()) {
            return Optional.of(REFUSAL);
        }
        Set<String> tables;
        try {
            tables = new TablesNamesFinder<Void>().getTables(statement.get());
        } catch (RuntimeException e) {
            return Optional.of(REFUSAL);
        }
        for (String table : tables) {
            if (!allowed.test(unquoted(table))) {
                return Optional.of(REFUSAL);
            }
        }
        return Optional.empty();
    }

    private static String unquoted(String name) {
        return name.replace("\"", "").replace("`", "").replace("[", "").replace("]", "");
    }
}

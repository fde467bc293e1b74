package io.flowsql.agents.opensearch.align;

import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.engine.SqlParsing;
import io.flowsql.sql.TableSchema;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.Select;

/**
 * Dialect alignment, on an engine that does not run SQLite's SQL as written: the habits of a model trained on SQLite's
 * SQL (Spider's golds are SQLite's) written as the engine must read them to return SQLite's result. The rewrites are the
 * engine profile's ({@link io.flowsql.sql.engine.EngineProfile#alignSpiderSql}): on PostgreSQL and DuckDB double-quoted
 * values become text literals and {@code LIKE} becomes {@code ILIKE}; on MariaDB double-quoted names become backticked
 * names, {@code ||} {@code CONCAT}, SQLite's casts, functions and case-blind {@code LIKE} MariaDB's. SQLite's SQL is
 * left alone.
 */
public final class DialectAlignment implements AlignmentRule {
    public static final String NAME = "dialect";
    private final Function<String, DatabaseEngine> engineOf;

    /** @param engineOf the engine behind a database id */
    public DialectAlignment(Function<String, DatabaseEngine> engineOf) {
        this.engineOf = engineOf;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<String> apply(String sql, DatabaseSchema schema) {
        DatabaseEngine engine = engineOf.apply(schema.dbId());
        if (engine.profile().runsSpiderSqlAsWritten()) {
            return Optional.empty();
        }
        Optional<Statement> parsed = SqlParsing.parse(sql, engine).filter(Select.class::isInstance);
        if (parsed.isEmpty()) {
            return Optional.empty();
        }
        Set<String> names = schema.tables().stream().flatMap(t -> t.columns().stream())
                .map(c -> c.name().toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        schema.tables().stream().map(TableSchema::name).map(n -> n.toLowerCase(Locale.ROOT)).forEach(names::add);
        return engine.profile().alignSpiderSql(sql, parsed.get(), names);
    }
}

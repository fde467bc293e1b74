package io.flowsql.sql.exec;

import io.flowsql.sql.engine.SqlLexer;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.engine.EngineProfile;

/**
 * The statement guard per engine: {@link SqlStatementGuard}'s rules for every engine (one SELECT/WITH, no hidden
 * statements, bounded text and nesting, bounded parse, all read on the engine's own tokens and parsed in its dialect),
 * then the engine profile's rules ({@link EngineProfile#tokenRefusal}, {@link EngineProfile#parsedRefusal}): on an
 * engine that can write, read files or run programs, no escape or dollar-quoted strings, no clause that writes or
 * locks, none of the engine's dangerous functions, and the statement must parse. The read-only transaction, the time
 * and memory limits and the locked-down engine settings stay the barrier behind it.
 */
public final class EngineStatementGuard {

    private final SqlStatementGuard base;

    public EngineStatementGuard(SqlStatementGuard base) {
        this.base = base;
    }

    public EngineStatementGuard() {
        this(new SqlStatementGuard());
    }

    public SqlStatementGuard base() {
        return base;
    }

    /** The verdict on this engine. */
    public GuardVerdict check(DatabaseEngine engine, String sql, StatementBudget budget) {
        EngineProfile profile = engine.profile();
        if (sql != null && sql.length() <= base.maxLength()) {
            String refusal = profile.tokenRefusal(sql, SqlLexer.scan(sql, profile.lexing()));
            if (refusal != null) {
                return GuardVerdict.refused(refusal);
            }
        }
        GuardVerdict verdict = base.check(sql, budget, engine);
        if (verdict.accepted() && verdict.needsSqliteCheck() && profile.mustParse()) {
            return GuardVerdict.refused("the statement could not be read as one SELECT query (on " + profile.displayName()
                    + " a statement must parse)");
        }
        return verdict;
    }
}

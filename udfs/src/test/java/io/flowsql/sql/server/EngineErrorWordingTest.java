package io.flowsql.sql.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.engine.StatementFault;
import io.flowsql.sql.exec.SafeExecutor;
import io.flowsql.sql.exec.SqlExecutorConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each engine's profile reads the error messages that engine really gives: bad SQL on Spider's concert_singer is run
 * through the job's executor on real SQLite, embedded PostgreSQL, DuckDB and MariaDB ({@code deploy/mariadb-start.sh}),
 * and the message it records is read by the profile of the engine it ran on into the fault the correction stages act
 * on (the form, a missing column, another missing name, anything else). MariaDB's cases run in {@code MariaDbEngineTest}
 * on its server.
 */
class EngineErrorWordingTest {
    /** Mistakes every engine words as the same fault. */
    private static final Map<String, StatementFault> EVERY_ENGINE = cases(
            "SELECT Nme FROM singer", StatementFault.UNKNOWN_COLUMN,
            "SELECT Name FROM singers", StatementFault.UNKNOWN_NAME,
            "SELECT Name FROM singer AS a JOIN singer AS b ON a.Singer_ID = b.Singer_ID", StatementFault.UNKNOWN_NAME,
            "SELECT Name FROM singer WHERE", StatementFault.FORM,
            "SELECT Name FROM singer WHERE Age >", StatementFault.FORM,
            "DELETE FROM singer", StatementFault.OTHER);

    /**
     * Mistakes PostgreSQL and DuckDB refuse and SQLite runs (a strict GROUP BY, no implicit casts, no SQLite function);
     * each words them in its own way ("missing FROM-clause entry" / "Referenced table not found").
     */
    private static final Map<String, StatementFault> STRICT_ENGINES = cases(
            "SELECT T3.Name FROM singer AS T1", StatementFault.UNKNOWN_NAME,
            "SELECT Country, Name FROM singer GROUP BY Country", StatementFault.FORM,
            "SELECT Name FROM singer WHERE Age = 'thirty' || Name", StatementFault.FORM,
            "SELECT julianday(Name) FROM singer", StatementFault.FORM);

    static DatabaseParts parts;

    @BeforeAll
    static void start() throws Exception {
        parts = DatabaseParts.build(ServerDatabases.get().registry(), SqlExecutorConfig.defaults().withTimeoutMillis(5_000), 4);
    }

    @AfterAll
    static void stop() {
        parts.sql().close();
    }

    @Test
    void sqlite() {
        readsItsOwnWording(parts.sql(), "concert_singer", DatabaseEngine.SQLITE, cases(
                "SELECT T3.Name FROM singer AS T1", StatementFault.UNKNOWN_COLUMN,
                "SELECT no_such_fn(Name) FROM singer", StatementFault.FORM));
    }

    @Test
    void postgresql() {
        readsItsOwnWording(parts.sql(), "pg_concert_singer", DatabaseEngine.POSTGRESQL, STRICT_ENGINES);
    }

    @Test
    void duckdb() {
        readsItsOwnWording(parts.sql(), "duck_concert_singer", DatabaseEngine.DUCKDB, STRICT_ENGINES);
    }

    /**
     * PostgreSQL's SQLState reaches the error and is read before its wording: an undefined column ({@code 42703}), an
     * undefined table ({@code 42P01}), a grouping error ({@code 42803}) and a missing function ({@code 42883}) keep
     * their fault with the message replaced by wording that names another one. (A syntax error, {@code 42601}, is
     * mapped too but never reaches PostgreSQL: the guard refuses a statement that does not parse.)
     */
    @Test
    void postgresqlReadsTheSqlStateFirst() {
        readsTheSqlStateFirst(parts.sql(), "pg_concert_singer", DatabaseEngine.POSTGRESQL, Map.of(
                "SELECT Nme FROM singer", "42703",
                "SELECT Name FROM singers", "42P01",
                "SELECT Country, Name FROM singer GROUP BY Country", "42803",
                "SELECT julianday(Name) FROM singer", "42883"));
    }

    /**
     * A candidate run through the job's runner keeps PostgreSQL's SQLState beside its error text (what OpenSearch-SQL's
     * corrector reads first); a candidate that runs has none.
     */
    @Test
    void aCandidateKeepsTheSqlState() {
        io.flowsql.pipeline.CandidateRunner runner = new io.flowsql.pipeline.CandidateRunner(
                io.flowsql.access.DataDoors.open(parts.sql(), null));
        io.flowsql.pipeline.Candidate failed = runner.run("pg_concert_singer",
                new io.flowsql.pipeline.Candidate("t", "SELECT Nme FROM singer"));
        assertThat(failed.error).contains("nme");
        assertThat(failed.errorState).isEqualTo("42703");
        io.flowsql.pipeline.Candidate ran = runner.run("pg_concert_singer",
                new io.flowsql.pipeline.Candidate("t", "SELECT Name FROM singer"));
        assertThat(ran.error).isNull();
        assertThat(ran.errorState).isNull();
    }

    /** Each case fails with its SQLState, which names the case's fault even under another fault's wording. */
    static void readsTheSqlStateFirst(SafeExecutor sql, String dbId, DatabaseEngine engine, Map<String, String> stateOf) {
        for (var c : stateOf.entrySet()) {
            ExecutionResult r = sql.execute(dbId, c.getKey(), sql.newBudget());
            assertThat(r.ok()).as(c.getKey()).isFalse();
            assertThat(r.error().sqlState()).as(engine + ": " + c.getKey() + " -> " + r.error()).isEqualTo(c.getValue());
            StatementFault fault = engine.profile().fault(r.error().message());
            String otherWording = fault == StatementFault.UNKNOWN_COLUMN ? "you have an error in your sql syntax"
                    : "unknown column 'x' in 'field list'";
            assertThat(engine.profile().fault(otherWording)).isNotEqualTo(fault);
            assertThat(engine.profile().fault(r.error().sqlState(), otherWording)).as(engine + ": " + c.getKey()).isEqualTo(fault);
        }
    }

    /** Runs the cases every engine shares and {@code own} on {@code dbId}; each message must read as its fault. */
    static void readsItsOwnWording(SafeExecutor sql, String dbId, DatabaseEngine engine,
                                           Map<String, StatementFault> own) {
        Map<String, StatementFault> all = new LinkedHashMap<>(EVERY_ENGINE);
        all.putAll(own);
        assertThat(sql.engineOf(dbId)).isEqualTo(engine);
        for (var c : all.entrySet()) {
            ExecutionResult r = sql.execute(dbId, c.getKey(), sql.newBudget());
            String message = r.ok() ? null : r.error().message();
            String state = r.ok() ? null : r.error().sqlState();
            System.out.printf("%s %-14s [%s] %s%n", engine, engine.profile().fault(state, message), state, message);
            assertThat(r.ok()).as(engine + ": " + c.getKey()).isFalse();
            assertThat(engine.profile().fault(state, message)).as(engine + ": " + c.getKey() + " -> [" + state + "] " + message)
                    .isEqualTo(c.getValue());
            // the wording alone still reads the same (an error recorded as text has no state)
            assertThat(engine.profile().fault(message)).as(engine + " by wording: " + c.getKey() + " -> " + message)
                    .isEqualTo(c.getValue());
        }
    }

    static Map<String, StatementFault> cases(Object... sqlThenFault) {
        Map<String, StatementFault> m = new LinkedHashMap<>();
        for (int i = 0; i < sqlThenFault.length; i += 2) {
            m.put((String) sqlThenFault[i], (StatementFault) sqlThenFault[i + 1]);
        }
        return m;
    }
}

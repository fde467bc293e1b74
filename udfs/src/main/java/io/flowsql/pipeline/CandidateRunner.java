package io.flowsql.pipeline;

import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SqlError;
import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.compare.ComparisonBudgetExceeded;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.ResultFingerprint;
import java.util.ArrayList;
import java.util.List;
import io.flowsql.access.DataDoors;
import java.util.Objects;

/**
 * Executes one candidate through the safe executor and records what the vote and the answer need
 * (fingerprint, row count, time, error, a short preview). Free of Flink and cheap to build, so the
 * job's candidate-execution operator and the plain pipeline share it.
 */
public final class CandidateRunner {
    public static final int DEFAULT_PREVIEW_ROWS = 10;

    private final StageSql sql;
    private final ComparisonMode comparison;
    private final int previewRows;

    /** Groups results as Spider's test-suite evaluator compares them (row bag, any column order). */
    public CandidateRunner(DataDoors room) {
        this(room, ComparisonMode.SPIDER_TEST_SUITE, DEFAULT_PREVIEW_ROWS);
    }

    /**
     * @param comparison which results the vote treats as the same answer: their {@link ResultFingerprint} under this
     *                   mode is equal (the evaluator compares with the same mode)
     */
    /**
     * @param room whose doors run a candidate's SQL: under the room's policies a candidate is checked against its
     *             tenant's table list before it runs ({@link #run(String, String, Candidate, Cancellation)})
     */
    public CandidateRunner(DataDoors room, ComparisonMode comparison, int previewRows) {
        this.sql = new StageSql(room);
        this.comparison = Objects.requireNonNull(comparison, "comparison");
        this.previewRows = previewRows;
    }

    /** The engine behind a database id (whose wording a candidate's error is read in). */
    public io.flowsql.sql.engine.DatabaseEngine engineOf(String dbId) {
        return sql.engineOf(dbId);
    }

    /**
     * Runs the candidate's SQL on the database and fills its execution fields; returns the same candidate. One budget
     * (the executor's time limit) covers the guard's parse, the execution, reading the result and its fingerprint: a
     * fingerprint past it leaves the candidate without one, failed with "comparison budget exceeded".
     */
    public Candidate run(String dbId, Candidate candidate) {
        return run(dbId, null, candidate, null);
    }

    /**
     * As {@link #run(String, Candidate)}, stopped by {@code cancellation} (a stage's, when not null): its cancel stops
     * the running statement (or the fingerprint) at once and the candidate fails as cancelled.
     */
    public Candidate run(String dbId, Candidate candidate, Cancellation cancellation) {
        return run(dbId, null, candidate, cancellation);
    }

    /**
     * As {@link #run(String, Candidate, Cancellation)}, for a question of {@code tenant}: SQL reading a table the
     * tenant's table list hides is not run ({@link StageSql}: the candidate fails with {@code invalid_sql: table X is not
     * available}).
     */
    public Candidate run(String dbId, String tenant, Candidate candidate, Cancellation cancellation) {
        if (candidate.sql == null || candidate.sql.isBlank()) {
            candidate.executed = true;
            candidate.error = "no SQL";
            candidate.errorState = null;
            return candidate;
        }
        StageSql.Scope scope = new StageSql.Scope(dbId, tenant, cancellation);
        StatementBudget budget = sql.budget(scope);
        ExecutionResult result = sql.execute(scope, candidate.sql, budget);
        candidate.executed = true;
        candidate.elapsedMicros = result.elapsedMicros();
        candidate.previewColumns = new ArrayList<>(result.columns());
        candidate.setPreview(preview(result.rows()));
        String fingerprint = null;
        if (result.ok()) {
            try {
                fingerprint = ResultFingerprint.of(result, comparison, false, budget);
            } catch (ComparisonBudgetExceeded e) {
                result = ExecutionResult.failed(new SqlError(SqlError.Kind.TIMEOUT, e.getMessage()), result.elapsedMicros());
            }
        }
        if (result.ok()) {
            candidate.error = null;
            candidate.errorState = null;
            candidate.rowCount = result.rowCount();
            candidate.resultFingerprint = fingerprint;
        } else {
            candidate.error = result.error().toString();
            candidate.errorState = result.error().sqlState();
            candidate.rowCount = 0;
            candidate.resultFingerprint = null;
        }
        return candidate;
    }

    /**
     * What an executed candidate recorded, as an execution result (its preview rows as text, its error with the kind
     * it was recorded with), so a later stage that needs the result of the same SQL does not run it again.
     */
    public static ExecutionResult recorded(Candidate candidate) {
        if (candidate.error != null) {
            return ExecutionResult.failed(recordedError(candidate.error), candidate.elapsedMicros);
        }
        List<List<Object>> rows = new ArrayList<>();
        candidate.preview.forEach(row -> rows.add(new ArrayList<>(row.cells)));
        return new ExecutionResult(candidate.previewColumns, rows, candidate.rowCount,
                candidate.rowCount > rows.size(), candidate.elapsedMicros, null);
    }

    private static SqlError recordedError(String text) {
        for (SqlError.Kind kind : SqlError.Kind.values()) {
            if (text.startsWith(kind + ": ")) {
                return new SqlError(kind, text.substring(kind.name().length() + 2));
            }
        }
        return new SqlError(SqlError.Kind.RUNTIME, text);
    }

    private List<List<String>> preview(List<List<Object>> rows) {
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < Math.min(previewRows, rows.size()); i++) {
            List<String> cells = new ArrayList<>();
            for (Object value : rows.get(i)) {
                cells.add(asText(value));
            }
            out.add(cells);
        }
        return out;
    }

    private static String asText(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof byte[] bytes) {
            return "<" + bytes.length + " bytes>";
        }
        return String.valueOf(value);
    }
}

package io.flowsql.pipeline;

/**
 * One candidate SQL and, once executed, a fingerprint of its result (equal fingerprints mean the
 * same result, as the vote groups them), its row count, execution time and error.
 */
public class Candidate {
    /** Which stage produced it, e.g. "opensearch.generate#2" or "sqlfix.crafter#1". */
    public String source;
    public String sql;
    public boolean executed;
    public String resultFingerprint;
    public int rowCount;
    public long elapsedMicros;
    /** Null when it ran without error. */
    public String error;
    /**
     * The engine's SQLState of {@link #error} when the engine gave one (PostgreSQL, MariaDB), else null: the correction
     * stages read it before the error's wording ({@link io.flowsql.sql.engine.EngineProfile#fault(String, String)}).
     */
    public String errorState;
    public int votes;
    /** The first rows of the result, rendered as text, for the answer's preview. */
    public java.util.List<String> previewColumns = new java.util.ArrayList<>();
    /**
     * The preview's rows. (Until state version v1 this was {@code previewRows}, a list of lists that Flink could only
     * serialize with Kryo; a candidate restored from such a savepoint comes back without its preview rows.)
     */
    public java.util.List<PreviewRow> preview = new java.util.ArrayList<>();

    public Candidate() {}

    public Candidate(String source, String sql) {
        this.source = source;
        this.sql = sql;
    }

    /**
     * Takes the execution of {@code other}, a candidate with the same SQL that ran: its result, error, time and preview
     * (copies), keeping this candidate's own source and votes. The same SQL on the same read-only database gives the
     * same result, so a question's duplicate candidates are run once and each still counts in the vote.
     */
    public void takeResultOf(Candidate other) {
        executed = other.executed;
        resultFingerprint = other.resultFingerprint;
        rowCount = other.rowCount;
        elapsedMicros = other.elapsedMicros;
        error = other.error;
        errorState = other.errorState;
        previewColumns = new java.util.ArrayList<>(other.previewColumns);
        preview = new java.util.ArrayList<>();
        other.preview.forEach(row -> preview.add(new PreviewRow(new java.util.ArrayList<>(row.cells))));
    }

    /** The preview's rows as lists of cells (a copy). */
    public java.util.List<java.util.List<String>> previewRows() {
        java.util.List<java.util.List<String>> rows = new java.util.ArrayList<>();
        preview.forEach(row -> rows.add(new java.util.ArrayList<>(row.cells)));
        return rows;
    }

    public void setPreview(java.util.List<java.util.List<String>> rows) {
        preview = new java.util.ArrayList<>();
        rows.forEach(row -> preview.add(new PreviewRow(row)));
    }
}

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
    public int votes;
    /** The first rows of the result, rendered as text, for the answer's preview. */
    public java.util.List<String> previewColumns = new java.util.ArrayList<>();
    public java.util.List<java.util.List<String>> previewRows = new java.util.ArrayList<>();

    public Candidate() {}

    public Candidate(String source, String sql) {
        this.source = source;
        this.sql = sql;
    }
}

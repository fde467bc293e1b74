package io.flowsql.feedback;

import java.util.Objects;

/**
 * One entry of the live library (a Flink POJO: broadcast state and the records that update it), under its feedback
 * id: a verified example, a correction (an example and a repair), a retraction of another id, or the tombstone a
 * retraction or an eviction leaves so the id is never learned again.
 */
public class LiveEntry {
    public static final String EXAMPLE = "example";
    public static final String CORRECTION = "correction";
    public static final String RETRACTION = "retraction";
    public static final String TOMBSTONE = "tombstone";

    public String feedbackId;
    public String kind;
    public String dbId;
    /** The tenant whose feedback taught it (null: none); another tenant sees it only through its own policy. */
    public String tenant;
    public String question;
    public String evidence;
    public String sql;
    /** A correction's wrong SQL (the answer's). */
    public String wrongSql;
    /** A retraction's target. */
    public String retracts;
    /** The feedback record's Kafka timestamp: the age and the eviction order are counted from it. */
    public long timestampMillis;

    public LiveEntry() {}

    static LiveEntry tombstone(String feedbackId, String dbId, long timestampMillis) {
        LiveEntry t = new LiveEntry();
        t.feedbackId = feedbackId;
        t.kind = TOMBSTONE;
        t.dbId = dbId;
        t.timestampMillis = timestampMillis;
        return t;
    }

    public boolean isExample() {
        return EXAMPLE.equals(kind) || CORRECTION.equals(kind);
    }

    public boolean isRepair() {
        return CORRECTION.equals(kind);
    }

    /** About the bytes the entry holds (its text), for the per-database byte bound. */
    long bytes() {
        return 64L + len(feedbackId) + len(dbId) + len(tenant) + len(question) + len(evidence) + len(sql) + len(wrongSql);
    }

    private static long len(String s) {
        return s == null ? 0 : 2L * s.length();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LiveEntry e && timestampMillis == e.timestampMillis && Objects.equals(feedbackId, e.feedbackId)
                && Objects.equals(kind, e.kind) && Objects.equals(dbId, e.dbId) && Objects.equals(question, e.question)
                && Objects.equals(evidence, e.evidence) && Objects.equals(sql, e.sql) && Objects.equals(wrongSql, e.wrongSql)
                && Objects.equals(retracts, e.retracts) && Objects.equals(tenant, e.tenant);
    }

    @Override
    public int hashCode() {
        return Objects.hash(feedbackId, kind, dbId, timestampMillis);
    }

    @Override
    public String toString() {
        return kind + " " + feedbackId + " on " + dbId;
    }
}

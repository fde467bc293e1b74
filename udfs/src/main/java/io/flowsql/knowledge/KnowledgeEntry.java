package io.flowsql.knowledge;

import java.util.Objects;

/**
 * One business definition people give the job (a Flink POJO, for broadcast state and the records that update it),
 * under its knowledge id: a term or rule and what it means for a database (optionally one schema of it and one
 * tenant), e.g. {@code "active customer"} = a customer with an order in the last 90 days; or the retraction of an
 * earlier id; or the tombstone a retraction or an eviction leaves so the id is never applied again.
 */
public class KnowledgeEntry {
    public static final String ADD = "add";
    public static final String RETRACT = "retract";
    public static final String TOMBSTONE = "tombstone";

    public String knowledgeId;
    public String action;
    public String dbId;
    /** Only questions on this schema of the database see it (a warehouse's namespace); null: every schema. */
    public String schema;
    /** Only this tenant's questions see it; null: every tenant of the database. */
    public String tenant;
    public String term;
    public String definition;
    /** A retraction's target. */
    public String retracts;
    /** The record's timestamp: eviction order is counted from it. */
    public long timestampMillis;

    public KnowledgeEntry() {}

    public static KnowledgeEntry add(String id, String dbId, String term, String definition, long timestampMillis) {
        KnowledgeEntry e = new KnowledgeEntry();
        e.knowledgeId = id;
        e.action = ADD;
        e.dbId = dbId;
        e.term = term;
        e.definition = definition;
        e.timestampMillis = timestampMillis;
        return e;
    }

    public static KnowledgeEntry retraction(String id, String target, long timestampMillis) {
        KnowledgeEntry e = new KnowledgeEntry();
        e.knowledgeId = id;
        e.action = RETRACT;
        e.retracts = target;
        e.timestampMillis = timestampMillis;
        return e;
    }

    static KnowledgeEntry tombstone(String id, String dbId, long timestampMillis) {
        KnowledgeEntry e = new KnowledgeEntry();
        e.knowledgeId = id;
        e.action = TOMBSTONE;
        e.dbId = dbId;
        e.timestampMillis = timestampMillis;
        return e;
    }

    public boolean isDefinition() {
        return ADD.equals(action);
    }

    /** About the bytes the entry holds, for the per-database byte bound. */
    long bytes() {
        return 64L + 2L * (len(knowledgeId) + len(dbId) + len(schema) + len(tenant) + len(term) + len(definition));
    }

    private static int len(String s) {
        return s == null ? 0 : s.length();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KnowledgeEntry e && timestampMillis == e.timestampMillis
                && Objects.equals(knowledgeId, e.knowledgeId) && Objects.equals(action, e.action)
                && Objects.equals(dbId, e.dbId) && Objects.equals(schema, e.schema) && Objects.equals(tenant, e.tenant)
                && Objects.equals(term, e.term) && Objects.equals(definition, e.definition)
                && Objects.equals(retracts, e.retracts);
    }

    @Override
    public int hashCode() {
        return Objects.hash(knowledgeId, action, dbId, term, timestampMillis);
    }

    @Override
    public String toString() {
        return knowledgeId + " " + action + (term == null ? "" : " \"" + term + "\"") + (dbId == null ? "" : " @" + dbId);
    }
}

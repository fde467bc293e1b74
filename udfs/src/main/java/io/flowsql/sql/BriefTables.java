package io.flowsql.sql;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * The tables a schema retrieval shows in brief, so renderings can write them on one line (name and column names,
 * keys marked; no types, descriptions or examples) and more of the likely tables fit a prompt's budget. A table is
 * brief as an object (identity, held weakly), not by its value: the same table read from a catalog renders in full.
 */
public final class BriefTables {
    private static final Cache<TableSchema, Boolean> BRIEF = Caffeine.newBuilder().weakKeys().build();

    private BriefTables() {}

    /** Marks {@code table} (this object) as shown in brief; returns it. */
    public static TableSchema mark(TableSchema table) {
        BRIEF.put(table, Boolean.TRUE);
        return table;
    }

    public static boolean isBrief(TableSchema table) {
        return BRIEF.getIfPresent(table) != null;
    }
}

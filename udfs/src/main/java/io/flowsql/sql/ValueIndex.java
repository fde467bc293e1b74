package io.flowsql.sql;

import java.util.List;

/**
 * Finds the text values of one database that a piece of text (question plus evidence) mentions.
 * Two implementations: {@code NgramValueIndex} (what the engine uses) and {@code LcsScanValueIndex} (the baseline
 * scan the index is checked and benchmarked against, and what it must return exactly).
 */
public interface ValueIndex {

    /** Best matches first, at most {@code limit}. */
    List<ValueMatch> find(String text, int limit);
}

package io.flowsql.sql;

import java.util.List;

/** Finds the text values of one database that a piece of text (question plus evidence) mentions. */
public interface ValueIndex {

    /** Best matches first, at most {@code limit}. */
    List<ValueMatch> find(String text, int limit);
}

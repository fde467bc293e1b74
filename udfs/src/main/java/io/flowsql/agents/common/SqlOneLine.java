package io.flowsql.agents.common;

import java.util.regex.Pattern;

/**
 * A query on one line: stripped, every run of whitespace one space; how stages compare candidates' SQL and show it.
 * The pattern is compiled once (String.replaceAll compiles one per call, for each of a question's 21 samples).
 */
public final class SqlOneLine {
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private SqlOneLine() {}

    public static String of(String sql) {
        return WHITESPACE.matcher(sql.strip()).replaceAll(" ");
    }
}

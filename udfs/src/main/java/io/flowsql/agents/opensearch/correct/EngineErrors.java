package io.flowsql.agents.opensearch.correct;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The correction class of an error message from any of the engines, by the engine's own wording: SQLite
 * ({@code no such column}), PostgreSQL ({@code ERROR: column "x" does not exist}, {@code must appear in the GROUP BY
 * clause}, {@code operator does not exist: text = integer}) and DuckDB ({@code Binder Error: Referenced column "x" not
 * found}, {@code Catalog Error: Scalar Function with name f does not exist}, {@code Cannot compare values of type}).
 * A name the schema lacks is {@link ErrorClass#SCHEMA}; a statement the engine rejects for its form (syntax, a function
 * it lacks, its strict GROUP BY, a comparison it will not cast) is {@link ErrorClass#SYNTAX}, whose prompt carries the
 * engine's rules; anything else (time-outs, refusals, failures while running) is {@link ErrorClass#FAILED}.
 */
final class EngineErrors {
    /** Function names first: "function f(text) does not exist" would otherwise read as a missing name. */
    private static final List<Pattern> SYNTAX = List.of(
            Pattern.compile("syntax error|incomplete input|unrecognized token|no such function|parse"),
            // PostgreSQL
            Pattern.compile("function .* does not exist|must appear in the group by clause|operator does not exist"
                    + "|could not determine data type|argument of (where|having|and|or) must be type|is of type .* but expression"
                    + "|invalid input syntax for type"),
            // DuckDB
            Pattern.compile("^parser error|(scalar|aggregate|table) function with name .* does not exist"
                    + "|no function matches|must be part of an aggregate function|cannot compare values of type"
                    + "|explicit cast is required|cannot mix values of type|conversion error: could not convert"));
    private static final List<Pattern> SCHEMA = List.of(
            Pattern.compile("no such column|no such table|ambiguous column"),
            // a table the question's access policy hides (io.flowsql.pipeline.StageSql), read as a missing one
            Pattern.compile("\\btable \\S+ is not available"),
            // PostgreSQL
            Pattern.compile("(column|relation) \".*\" does not exist|column reference \".*\" is ambiguous"
                    + "|missing from-clause entry|schema \".*\" does not exist"),
            // DuckDB
            Pattern.compile("referenced column .* not found|referenced table .* not found|table with name .* does not exist"
                    + "|ambiguous reference to column|values list \".*\" does not have a column"));

    private EngineErrors() {}

    static ErrorClass classify(String error) {
        String e = error.toLowerCase(Locale.ROOT);
        if (SYNTAX.stream().anyMatch(p -> p.matcher(e).find()) && !namesMissingRelation(e)) {
            return ErrorClass.SYNTAX;
        }
        if (SCHEMA.stream().anyMatch(p -> p.matcher(e).find())) {
            return ErrorClass.SCHEMA;
        }
        return ErrorClass.FAILED;
    }

    /** SQLite's "no such column" wins over a "parse" in the same text; PostgreSQL's syntax hints never name a relation. */
    private static boolean namesMissingRelation(String e) {
        return e.contains("no such column") || e.contains("no such table") || e.contains("ambiguous column");
    }
}

package io.flowsql.sql.engine;

/**
 * What a failed statement's error says is wrong with it, as the correction stages read it (OpenSearch-SQL's correction
 * by error class, MAG-SQL's refiner): each engine's profile reads its own wording into one of these.
 */
public enum StatementFault {
    /** The engine rejects the statement's form: syntax, a function it lacks, its strict GROUP BY, a cast it will not make. */
    FORM,
    /** A column the schema lacks. */
    UNKNOWN_COLUMN,
    /** Another name the schema lacks or leaves ambiguous (a table, a schema, an alias, an ambiguous column). */
    UNKNOWN_NAME,
    /** Anything else: a time-out, a refusal, a failure while running. */
    OTHER
}

package io.flowsql.simulator.oracle;

/** The mistakes the simulator puts into gold SQL, modelled on the errors language models make. */
public enum SqlErrorKind {
    WRONG_COLUMN,
    DROPPED_CONDITION,
    WRONG_AGGREGATE,
    SYNTAX_ERROR
}

package io.flowsql.sql.compare;

/** A comparison stopped because it would pass its statement's time or work budget: the verdict is "comparison budget exceeded". */
public final class ComparisonBudgetExceeded extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public static final String VERDICT = "comparison budget exceeded";

    ComparisonBudgetExceeded(String detail) {
        super(VERDICT + ": " + detail, null, false, false);
    }
}

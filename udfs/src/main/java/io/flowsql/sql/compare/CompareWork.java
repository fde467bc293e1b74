package io.flowsql.sql.compare;

import io.flowsql.sql.StatementBudget;

/** Counts a comparison's work against its statement's budget and stops it, by time or by work, before it runs away. */
final class CompareWork {

    private static final int UNITS_BETWEEN_CLOCK_CHECKS = 4_096;

    private final StatementBudget budget;
    private long done;
    private long sinceClockCheck;

    CompareWork(StatementBudget budget) {
        this.budget = budget;
    }

    /** Refuses at once, before doing any of it, work that would pass the cap. */
    void plan(long units, String what) {
        if (budget == null) {
            return;
        }
        if (units < 0 || done + units > budget.maxCompareWork()) {
            throw new ComparisonBudgetExceeded(what + " needs " + (units < 0 ? "too many" : String.valueOf(units))
                    + " value encodings, more than the " + budget.maxCompareWork() + " allowed");
        }
        checkClock();
    }

    /** Records one unit of work and looks at the clock every few thousand. */
    void tick() {
        done++;
        if (budget != null && ++sinceClockCheck >= UNITS_BETWEEN_CLOCK_CHECKS) {
            sinceClockCheck = 0;
            checkClock();
        }
    }

    private void checkClock() {
        if (budget != null && budget.expired()) {
            throw new ComparisonBudgetExceeded("the statement's time budget of " + budget.timeoutMillis() + " ms ran out");
        }
    }
}

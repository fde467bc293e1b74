package io.flowsql.sql.compare;

/**
 * The outcome of one bounded comparison: equal or not, or undecided because the comparison passed its budget
 * ({@code undecided} then says why; an undecided comparison never counts as equal).
 */
public record Match(boolean equal, String undecided) {

    public static final Match EQUAL = new Match(true, null);
    public static final Match DIFFERENT = new Match(false, null);

    public static Match of(boolean equal) {
        return equal ? EQUAL : DIFFERENT;
    }

    public static Match undecided(String reason) {
        return new Match(false, reason);
    }

    public boolean decided() {
        return undecided == null;
    }
}

package io.flowsql.sql.index;

/**
 * MAG-SQL-style value matching: the longest common substring of the question and a value, as a share
 * of the value's length; a value counts as mentioned when that share reaches {@code minShare} and the
 * shared run is at least {@code minRun} characters. Both value indexes score with this one class.
 */
public record LcsValueScorer(double minShare, int minRun) {

    public static LcsValueScorer defaults() {
        return new LcsValueScorer(0.8, 3);
    }

    /** The shortest run that can make this value match. */
    public int requiredRun(int valueLength) {
        return Math.max(minRun, (int) Math.ceil(minShare * valueLength - 1e-9));
    }

    /** The score in 0..1, or 0 when the value is not mentioned; both texts already lower-cased. */
    public double score(String text, String value) {
        int run = longestCommonSubstring(text, value);
        return run >= requiredRun(value.length()) ? (double) run / value.length() : 0;
    }

    static int longestCommonSubstring(String a, String b) {
        if (a.isEmpty() || b.isEmpty()) {
            return 0;
        }
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        int best = 0;
        for (int i = 1; i <= a.length(); i++) {
            char c = a.charAt(i - 1);
            for (int j = 1; j <= b.length(); j++) {
                current[j] = c == b.charAt(j - 1) ? previous[j - 1] + 1 : 0;
                if (current[j] > best) {
                    best = current[j];
                }
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return best;
    }
}

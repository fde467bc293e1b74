package io.flowsql.agents.common;

/**
 * A query on one line: stripped, every run of whitespace (space, tab, line feed, vertical tab, form feed, carriage
 * return: the regular expression {@code \s}) one space; how stages compare candidates' SQL and show it. A scan, not a
 * regular expression: the align stage calls it for each of a question's 21 samples (issue 41's profile), and a query
 * already on one line comes back as it is, without a copy.
 */
public final class SqlOneLine {
    private SqlOneLine() {}

    public static String of(String sql) {
        String s = sql.strip();
        int length = s.length();
        StringBuilder out = null;
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (!isSpace(c)) {
                if (out != null) {
                    out.append(c);
                }
                continue;
            }
            int end = i + 1;
            while (end < length && isSpace(s.charAt(end))) {
                end++;
            }
            if (out == null) {
                if (c == ' ' && end == i + 1) {
                    continue;
                }
                out = new StringBuilder(length).append(s, 0, i);
            }
            out.append(' ');
            i = end - 1;
        }
        return out == null ? s : out.toString();
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
    }
}

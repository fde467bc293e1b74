package io.flowsql.sql.compare;

import io.flowsql.sql.engine.SqlLexer;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a query sorts its final result (an ORDER BY outside every parenthesis), which decides if
 * the test-suite comparison must respect row order; window and sub-query ORDER BYs do not count.
 */
public final class TopLevelOrderBy {

    private static final Pattern ORDER_BY = Pattern.compile("\\border\\s+by\\b");

    private TopLevelOrderBy() {}

    public static boolean present(String sql) {
        if (sql == null) {
            return false;
        }
        String code = SqlLexer.scan(sql).codeOnly().toLowerCase(Locale.ROOT);
        StringBuilder topLevel = new StringBuilder(code.length());
        int depth = 0;
        for (int i = 0; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '(') {
                depth++;
                topLevel.append(' ');
            } else if (c == ')') {
                depth = Math.max(0, depth - 1);
                topLevel.append(' ');
            } else {
                topLevel.append(depth == 0 ? c : ' ');
            }
        }
        Matcher m = ORDER_BY.matcher(topLevel);
        return m.find();
    }
}

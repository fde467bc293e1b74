package io.flowsql.agents.opensearch.align.model;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;

/**
 * OpenSearch-SQL's function alignment (the authors' {@code double_check_function_align}): how functions and joins are
 * used. Fixed rewrites: {@code COUNT(CASE … THEN 1 ELSE 0 …)} becomes SUM (it counts every row), a year compared with
 * {@code strftime(…)} is quoted (strftime returns text). Problems for the model: a JOIN whose ON holds several
 * equalities joined by OR or an IN list (keep the one that matters), and {@code ORDER BY MAX(…)/MIN(…) … LIMIT}
 * (an aggregate in ORDER BY; under GROUP BY perhaps SUM).
 */
public final class FunctionChecks {
    private static final GatedPattern COUNT_CASE = GatedPattern.of("(?i)(COUNT)(\\([^()]*? THEN 1 ELSE 0.*?\\))", "COUNT", " THEN 1 ELSE 0");
    private static final GatedPattern YEAR = GatedPattern.of("(?i)(strftime\\s*\\([^()]*?\\)\\s*[>=<]+\\s*)(\\d{4,})", "STRFTIME");
    private static final GatedPattern JOIN_OR = GatedPattern.of(
            "(?i)JOIN\\s+\\w+(?:\\s+AS\\s+\\w+)?\\s+ON\\s+(\\w+\\.\\w+\\s*(?:=\\s*\\w+\\.\\w+(?:\\s+OR\\s+\\w+\\.\\w+\\s*=\\s*\\w+\\.\\w+)+|IN\\s*\\([^)]*\\)))", "JOIN", "=|IN");
    private static final GatedPattern ORDER_AGGREGATE = GatedPattern.of("(?i)ORDER BY\\s+((MIN|MAX)\\s*\\(([^)]*?)\\)).*?\\sLIMIT\\s+\\d+", "ORDER BY", "LIMIT", "MAX|MIN");

    private FunctionChecks() {}

    public static AlignFindings check(String candidate) {
        String sql = SqlText.oneLine(candidate);
        List<String> rewrites = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        String upper = GatedPattern.upper(sql);
        String summed = COUNT_CASE.replaceAll(sql, upper, "SUM$2");
        if (!summed.equals(sql)) {
            sql = summed;
            upper = GatedPattern.upper(sql);
            rewrites.add("count-case-to-sum");
        }
        String quoted = YEAR.replaceAll(sql, upper, "$1'$2'");
        if (!quoted.equals(sql)) {
            sql = quoted;
            upper = GatedPattern.upper(sql);
            rewrites.add("quote-year");
        }
        Matcher join = JOIN_OR.matcher(sql, upper);
        if (join.find()) {
            problems.add("`ON " + join.group(1).strip() + "`: a join condition with OR or IN; keep only the one"
                    + " equality `a.column = b.column` that links the tables");
        }
        Matcher order = ORDER_AGGREGATE.matcher(sql, upper);
        if (order.find()) {
            problems.add("`ORDER BY " + order.group(1) + "`: an incorrect use of " + order.group(2).toUpperCase()
                    + "; if the query has GROUP BY, decide whether it should be SUM(" + order.group(3).strip() + ")");
        }
        return new AlignFindings(sql, rewrites, problems);
    }
}

package io.flowsql.agents.opensearch.align.model;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * OpenSearch-SQL's function alignment (the authors' {@code double_check_function_align}): how functions and joins are
 * used. Fixed rewrites: {@code COUNT(CASE … THEN 1 ELSE 0 …)} becomes SUM (it counts every row), a year compared with
 * {@code strftime(…)} is quoted (strftime returns text). Problems for the model: a JOIN whose ON holds several
 * equalities joined by OR or an IN list (keep the one that matters), and {@code ORDER BY MAX(…)/MIN(…) … LIMIT}
 * (an aggregate in ORDER BY; under GROUP BY perhaps SUM).
 */
public final class FunctionChecks {
    private static final Pattern COUNT_CASE = Pattern.compile("(?i)(COUNT)(\\([^()]*? THEN 1 ELSE 0.*?\\))");
    private static final Pattern YEAR = Pattern.compile("(?i)(strftime\\s*\\([^()]*?\\)\\s*[>=<]+\\s*)(\\d{4,})");
    private static final Pattern JOIN_OR = Pattern.compile(
            "(?i)JOIN\\s+\\w+(?:\\s+AS\\s+\\w+)?\\s+ON\\s+(\\w+\\.\\w+\\s*(?:=\\s*\\w+\\.\\w+(?:\\s+OR\\s+\\w+\\.\\w+\\s*=\\s*\\w+\\.\\w+)+|IN\\s*\\([^)]*\\)))");
    private static final Pattern ORDER_AGGREGATE = Pattern.compile("(?i)ORDER BY\\s+((MIN|MAX)\\s*\\(([^)]*?)\\)).*?\\sLIMIT\\s+\\d+");

    private FunctionChecks() {}

    public static AlignFindings check(String candidate) {
        String sql = SqlText.oneLine(candidate);
        List<String> rewrites = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        String summed = COUNT_CASE.matcher(sql).replaceAll("SUM$2");
        if (!summed.equals(sql)) {
            sql = summed;
            rewrites.add("count-case-to-sum");
        }
        String quoted = YEAR.matcher(sql).replaceAll("$1'$2'");
        if (!quoted.equals(sql)) {
            sql = quoted;
            rewrites.add("quote-year");
        }
        Matcher join = JOIN_OR.matcher(sql);
        if (join.find()) {
            problems.add("`ON " + join.group(1).strip() + "`: a join condition with OR or IN; keep only the one"
                    + " equality `a.column = b.column` that links the tables");
        }
        Matcher order = ORDER_AGGREGATE.matcher(sql);
        if (order.find()) {
            problems.add("`ORDER BY " + order.group(1) + "`: an incorrect use of " + order.group(2).toUpperCase()
                    + "; if the query has GROUP BY, decide whether it should be SUM(" + order.group(3).strip() + ")");
        }
        return new AlignFindings(sql, rewrites, problems);
    }
}

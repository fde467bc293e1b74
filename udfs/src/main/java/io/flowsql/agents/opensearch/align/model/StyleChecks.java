package io.flowsql.agents.opensearch.align.model;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * OpenSearch-SQL's style alignment (the authors' {@code double_check_style_align}): the form BIRD's gold queries use.
 * Fixed rewrites: {@code || ' ' ||} in the SELECT list becomes a column list. Problems for the model: a MAX/MIN
 * subquery compared with {@code =} (use {@code ORDER BY … LIMIT 1}), a subquery with LIMIT compared with {@code =}
 * (use a JOIN), a MIN/MAX in the SELECT list of a query with {@code LIMIT 1} (redundant), an ascending
 * {@code ORDER BY … LIMIT} without SUM/COUNT (add {@code IS NOT NULL}: SQLite sorts NULL first), and {@code t.*}
 * in the SELECT list (name the column, its id).
 */
public final class StyleChecks {
    private static final GatedPattern CONCAT = GatedPattern.of("(?is)^SELECT.*?\\|\\| ' ' \\|\\|.*?FROM", "|| ' ' ||");
    private static final GatedPattern MAX_SUBQUERY = GatedPattern.of("(?i)=\\s*\\(\\s*SELECT\\s+(MAX|MIN)\\s*\\(([^()]*?)\\)\\s+FROM\\s+(\\w+)", "=", "MAX|MIN");
    private static final GatedPattern LIMIT_SUBQUERY = GatedPattern.of("(?i)=\\s*(\\(\\s*SELECT\\s[^()]*?LIMIT\\s+\\d+\\s*\\))", "=", "LIMIT");
    private static final GatedPattern SELECT_AGGREGATE = GatedPattern.of("(?is)^SELECT[^()]*?\\s((MIN|MAX)\\s*\\([^)]*?\\)).*?LIMIT\\s+1\\b", "LIMIT", "MAX|MIN");
    private static final GatedPattern ORDER_LIMIT = GatedPattern.of("(?is)ORDER BY\\s+(.*?)(?<!DESC )LIMIT\\s+\\d+", "ORDER BY", "LIMIT");
    /** An ORDER BY key that sums or counts (never NULL): no IS NOT NULL needed. */
    private static final Pattern COUNTED = Pattern.compile("\\b(SUM|COUNT)\\s*\\(");
    private static final Pattern ASCENDING = Pattern.compile("(?i)\\s+ASC$");
    private static final GatedPattern STAR = GatedPattern.of("(?is)^SELECT.*?\\s(\\w+\\.\\*).*?FROM", ".*", "FROM");

    private StyleChecks() {}

    public static AlignFindings check(String candidate) {
        String sql = SqlText.oneLine(candidate);
        List<String> rewrites = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        if (CONCAT.matcher(sql, GatedPattern.upper(sql)).find()) {
            sql = sql.replace("|| ' ' ||", ",");
            rewrites.add("concat-to-columns");
        }
        String plain = SqlText.withoutAliases(sql);
        String upper = GatedPattern.upper(plain);
        Matcher max = MAX_SUBQUERY.matcher(plain, upper);
        while (max.find()) {
            String order = max.group(1).equalsIgnoreCase("MAX") ? "DESC" : "ASC";
            problems.add("`= (SELECT " + max.group(1).toUpperCase() + "(" + max.group(2) + ") FROM " + max.group(3)
                    + ")`: use `ORDER BY " + max.group(3) + "." + stripTable(max.group(2)) + " " + order
                    + " LIMIT 1` instead of the nested query");
        }
        Matcher limited = LIMIT_SUBQUERY.matcher(plain, upper);
        while (limited.find()) {
            problems.add("`= " + limited.group(1) + "`: use a JOIN instead of the nested query");
        }
        Matcher aggregate = SELECT_AGGREGATE.matcher(plain, upper);
        if (aggregate.find()) {
            problems.add("`" + aggregate.group(1) + "`: the " + aggregate.group(2).toUpperCase()
                    + " function is redundant with ORDER BY … LIMIT 1; select the column itself");
        }
        Matcher ordered = ORDER_LIMIT.matcher(plain, upper);
        if (ordered.find() && !COUNTED.matcher(ordered.group(1).toUpperCase()).find()) {
            problems.add("`ORDER BY " + ordered.group(1).strip() + "` with LIMIT: add `WHERE " + ASCENDING.matcher(ordered.group(1).strip())
                    .replaceAll("") + " IS NOT NULL` (SQLite sorts NULL first)");
        }
        Matcher star = STAR.matcher(plain, upper);
        if (star.find()) {
            problems.add("`" + star.group(1) + "` in the SELECT list: select the column the question asks for (its id)"
                    + " instead of every column");
        }
        return new AlignFindings(sql, rewrites, problems);
    }

    private static String stripTable(String column) {
        int dot = column.lastIndexOf('.');
        return (dot < 0 ? column : column.substring(dot + 1)).strip();
    }
}

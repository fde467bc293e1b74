package io.flowsql.simulator.agents;

import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedRequest;
import io.flowsql.simulator.SimulationContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Simulates OpenSearch-SQL's alignment steps ({@code opensearch.align.style|function|agent}) as a cautious model that
 * follows only the instructions it can apply to the text: "add {@code WHERE x IS NOT NULL}" is added, a value the
 * database holds in another column of the same table moves to that column; every other problem is left as it is.
 * It never looks at the gold SQL, so a replay of real predictions measures the checks, not the oracle.
 */
public final class OpenSearchAlignResponder implements Responder {
    private static final Pattern NOT_NULL = Pattern.compile("add `WHERE (.+?) IS NOT NULL`");
    private static final Pattern MOVED_VALUE = Pattern.compile(
            "`(\\w+)\\.(\\w+) = ('(?:''|[^'])*')` does not exist in the database; it holds (\\w+)\\.(\\w+) = ('(?:''|[^'])*')");
    private static final Pattern CLAUSE_AFTER_WHERE = Pattern.compile("(?i)\\s(GROUP BY|ORDER BY|LIMIT)\\s");

    @Override
    public Optional<List<String>> respond(SimulatedRequest request, SimulationContext context) {
        Optional<String> given = request.field("SQL");
        if (given.isEmpty()) {
            return Optional.empty();
        }
        String sql = given.get().strip();
        String message = request.lastUserMessage();
        List<String> done = new ArrayList<>();
        Matcher notNull = NOT_NULL.matcher(message);
        while (notNull.find()) {
            sql = withCondition(sql, notNull.group(1) + " IS NOT NULL");
            done.add(notNull.group(1) + " IS NOT NULL added");
        }
        Matcher moved = MOVED_VALUE.matcher(message);
        while (moved.find()) {
            if (moved.group(1).equalsIgnoreCase(moved.group(4)) && moved.group(3).equals(moved.group(6))) {
                String before = sql;
                sql = sql.replaceAll("(?i)\\b" + Pattern.quote(moved.group(2)) + "(\\s*=\\s*" + Pattern.quote(moved.group(3)) + ")",
                        Matcher.quoteReplacement(moved.group(5)) + "$1");
                if (!sql.equals(before)) {
                    done.add(moved.group(3) + " compared with " + moved.group(5));
                }
            }
        }
        String reason = done.isEmpty() ? "the query already answers the question; kept as it is" : String.join("; ", done);
        return Optional.of(List.of("#reason: " + reason + "\n#SQL:\n```sql\n" + sql + "\n```"));
    }

    /** {@code sql} with {@code condition} ANDed into its WHERE clause (or a new one before GROUP BY/ORDER BY/LIMIT). */
    static String withCondition(String sql, String condition) {
        Matcher clause = CLAUSE_AFTER_WHERE.matcher(sql);
        int end = clause.find() ? clause.start() : sql.length();
        String head = sql.substring(0, end);
        String glue = head.toUpperCase().contains(" WHERE ") ? " AND " : " WHERE ";
        return head + glue + condition + sql.substring(end);
    }
}

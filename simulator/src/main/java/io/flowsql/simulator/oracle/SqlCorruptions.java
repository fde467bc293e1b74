package io.flowsql.simulator.oracle;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.PlainSelect;

/**
 * The individual edits that turn correct SQL into a typical wrong answer; each works on the parse
 * tree when JSqlParser reads the query and falls back to plain string edits when it does not.
 */
final class SqlCorruptions {
    private static final Map<String, String> AGGREGATE_SWAPS =
            Map.of("COUNT", "SUM", "SUM", "COUNT", "MAX", "MIN", "MIN", "MAX", "AVG", "SUM");
    private static final Pattern AGGREGATE_CALL = Pattern.compile("(?i)\\b(COUNT|SUM|MAX|MIN|AVG)\\s*\\(");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Set<String> NOT_COLUMNS = Set.of("select", "from", "where", "and", "or", "not", "null",
            "table", "text", "number", "int", "integer", "real", "varchar", "primary", "key", "foreign", "references",
            "schema", "create", "on", "as", "join", "group", "order", "by", "limit", "columns", "column", "values");

    private SqlCorruptions() {}

    static Optional<String> apply(SqlErrorKind kind, String sql, String schemaText, Random random) {
        return switch (kind) {
            case WRONG_COLUMN -> wrongColumn(sql, schemaText, random);
            case DROPPED_CONDITION -> droppedCondition(sql, random);
            case WRONG_AGGREGATE -> wrongAggregate(sql, random);
            case SYNTAX_ERROR -> Optional.of(syntaxError(sql, random));
        };
    }

    private static Optional<Statement> parse(String sql) {
        try {
            // newParser(..).Statement() on this thread: CCJSqlParserUtil.parse(String) makes an executor per call
            return Optional.of(CCJSqlParserUtil.newParser(sql).withAllowComplexParsing(true).Statement());
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    /** Swaps one column for another name taken from the query itself or from the prompt's schema. */
    static Optional<String> wrongColumn(String sql, String schemaText, Random random) {
        Optional<Statement> parsed = parse(sql);
        if (parsed.isPresent()) {
            List<Column> columns = SqlNodeCollector.of(parsed.get()).columns();
            if (columns.isEmpty()) {
                return Optional.empty();
            }
            Column victim = columns.get(random.nextInt(columns.size()));
            List<String> others = otherNames(victim.getColumnName(), namesOf(columns), schemaText);
            if (others.isEmpty()) {
                return Optional.empty();
            }
            victim.setColumnName(others.get(random.nextInt(others.size())));
            return Optional.of(parsed.get().toString());
        }
        List<String> words = identifiersOf(sql);
        if (words.size() < 2) {
            return Optional.empty();
        }
        String victim = words.get(random.nextInt(words.size()));
        List<String> others = otherNames(victim, words, schemaText);
        return others.isEmpty() ? Optional.empty()
                : Optional.of(sql.replaceFirst("\\b" + Pattern.quote(victim) + "\\b",
                        Matcher.quoteReplacement(others.get(random.nextInt(others.size())))));
    }

    /** Removes one conjunct of the top-level WHERE, or the whole WHERE when it has a single condition. */
    static Optional<String> droppedCondition(String sql, Random random) {
        Optional<Statement> parsed = parse(sql);
        if (parsed.isPresent() && parsed.get() instanceof PlainSelect select) {
            Expression where = select.getWhere();
            if (where == null) {
                return Optional.empty();
            }
            if (where instanceof AndExpression || where instanceof OrExpression) {
                BinaryExpression both = (BinaryExpression) where;
                select.setWhere(random.nextBoolean() ? both.getLeftExpression() : both.getRightExpression());
            } else {
                select.setWhere(null);
            }
            return Optional.of(select.toString());
        }
        Matcher and = Pattern.compile("(?i)\\s+AND\\s+[^()]*?(?=\\s+(GROUP|ORDER|LIMIT|HAVING)\\b|\\)|$)").matcher(sql);
        if (and.find()) {
            return Optional.of(sql.substring(0, and.start()) + sql.substring(and.end()));
        }
        Matcher whole = Pattern.compile("(?i)\\s+WHERE\\s+[^()]*?(?=\\s+(GROUP|ORDER|LIMIT)\\b|$)").matcher(sql);
        return whole.find() ? Optional.of(sql.substring(0, whole.start()) + sql.substring(whole.end())) : Optional.empty();
    }

    /** Swaps one aggregate: COUNT and SUM for each other, MAX and MIN for each other, AVG to SUM. */
    static Optional<String> wrongAggregate(String sql, Random random) {
        Optional<Statement> parsed = parse(sql);
        if (parsed.isPresent()) {
            List<Function> swappable = new ArrayList<>();
            for (Function function : SqlNodeCollector.of(parsed.get()).functions()) {
                String name = function.getName().toUpperCase(Locale.ROOT);
                boolean countStar = "COUNT".equals(name) && function.isAllColumns()
                        || "COUNT".equals(name) && String.valueOf(function.getParameters()).contains("*");
                if (AGGREGATE_SWAPS.containsKey(name) && !countStar) {
                    swappable.add(function);
                }
            }
            if (swappable.isEmpty()) {
                return Optional.empty();
            }
            Function victim = swappable.get(random.nextInt(swappable.size()));
            victim.setName(AGGREGATE_SWAPS.get(victim.getName().toUpperCase(Locale.ROOT)));
            return Optional.of(parsed.get().toString());
        }
        Matcher call = AGGREGATE_CALL.matcher(sql);
        if (!call.find()) {
            return Optional.empty();
        }
        String swapped = AGGREGATE_SWAPS.get(call.group(1).toUpperCase(Locale.ROOT));
        return Optional.of(sql.substring(0, call.start(1)) + swapped + sql.substring(call.end(1)));
    }

    /** Breaks the statement the way a truncated or careless generation does. */
    static String syntaxError(String sql, Random random) {
        Matcher from = Pattern.compile("(?i)\\bFROM\\b").matcher(sql);
        int closing = sql.lastIndexOf(')');
        if (closing >= 0 && random.nextBoolean()) {
            return sql.substring(0, closing) + sql.substring(closing + 1);
        }
        if (from.find()) {
            return sql.substring(0, from.start()) + "FORM" + sql.substring(from.end()) + " WHERE";
        }
        return sql + " WHERE AND";
    }

    private static List<String> namesOf(List<Column> columns) {
        List<String> names = new ArrayList<>();
        columns.forEach(c -> names.add(c.getColumnName()));
        return names;
    }

    private static List<String> identifiersOf(String text) {
        List<String> words = new ArrayList<>();
        Matcher matcher = IDENTIFIER.matcher(text);
        while (matcher.find()) {
            if (!NOT_COLUMNS.contains(matcher.group().toLowerCase(Locale.ROOT))) {
                words.add(matcher.group());
            }
        }
        return words;
    }

    private static List<String> otherNames(String victim, List<String> inStatement, String schemaText) {
        Set<String> others = new LinkedHashSet<>();
        for (String name : inStatement) {
            if (!name.equalsIgnoreCase(victim)) {
                others.add(name);
            }
        }
        if (others.isEmpty() && schemaText != null) {
            for (String name : identifiersOf(schemaText)) {
                if (!name.equalsIgnoreCase(victim)) {
                    others.add(name);
                }
            }
        }
        return new ArrayList<>(others);
    }
}

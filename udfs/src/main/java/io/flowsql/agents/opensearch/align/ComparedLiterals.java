package io.flowsql.agents.opensearch.align;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.relational.ComparisonOperator;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * Walks a whole statement (subqueries included) and collects every text literal compared with a column by
 * =, <> or IN, plus every table alias, so value alignment knows which column each literal is meant for.
 * A double-quoted token on the value side counts as a literal, as SQLite reads it when no column has that name.
 */
final class ComparedLiterals extends TablesNamesFinder<Void> {

    /** A literal as written ({@code token}, quotes included) and its text, compared with {@code column}. */
    record Comparison(Column column, String token, String text) {}

    private final List<Comparison> comparisons = new ArrayList<>();
    private final Map<String, String> aliases = new HashMap<>();

    static ComparedLiterals of(Select select) {
        ComparedLiterals finder = new ComparedLiterals();
        finder.getTables((net.sf.jsqlparser.statement.Statement) select);
        return finder;
    }

    List<Comparison> comparisons() {
        return comparisons;
    }

    /** Alias or name (lower case) to table name, across the statement. */
    Map<String, String> aliases() {
        return aliases;
    }

    @Override
    public <S> Void visit(Table table, S context) {
        String name = SqlAst.unquote(table.getName());
        aliases.putIfAbsent(name.toLowerCase(Locale.ROOT), name);
        if (table.getAlias() != null) {
            aliases.put(SqlAst.unquote(table.getAlias().getName()).toLowerCase(Locale.ROOT), name);
        }
        return super.visit(table, context);
    }

    @Override
    public <S> Void visit(EqualsTo equalsTo, S context) {
        record(equalsTo);
        return super.visit(equalsTo, context);
    }

    @Override
    public <S> Void visit(NotEqualsTo notEqualsTo, S context) {
        record(notEqualsTo);
        return super.visit(notEqualsTo, context);
    }

    @Override
    public <S> Void visit(InExpression in, S context) {
        if (in.getLeftExpression() instanceof Column column && in.getRightExpression() instanceof ExpressionList<?> list) {
            for (Expression item : list) {
                literal(item, column);
            }
        }
        return super.visit(in, context);
    }

    private void record(ComparisonOperator comparison) {
        Expression left = comparison.getLeftExpression();
        Expression right = comparison.getRightExpression();
        if (left instanceof Column column && !literal(right, column) && right instanceof Column other) {
            literal(left, other);
        } else if (!(left instanceof Column) && right instanceof Column column) {
            literal(left, column);
        }
    }

    private boolean literal(Expression expression, Column column) {
        if (expression instanceof StringValue value && (value.getPrefix() == null || value.getPrefix().isEmpty())) {
            comparisons.add(new Comparison(column, "'" + value.getValue() + "'", value.getValue().replace("''", "'")));
            return true;
        }
        if (expression instanceof Column quoted && quoted.getTable() == null
                && quoted.getColumnName().length() > 1 && quoted.getColumnName().startsWith("\"")
                && quoted.getColumnName().endsWith("\"")) {
            String name = quoted.getColumnName();
            comparisons.add(new Comparison(column, name, name.substring(1, name.length() - 1).replace("\"\"", "\"")));
            return true;
        }
        return false;
    }
}

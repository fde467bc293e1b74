package io.flowsql.agents.opensearch.align;

import io.flowsql.sql.DatabaseSchema;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;

/**
 * Style alignment: {@code WHERE x = (SELECT MAX(x) FROM t)} becomes {@code ORDER BY x DESC LIMIT 1} (MIN:
 * ASC), the form benchmark annotators write. Only when the subquery ranges over the same single table with
 * no filter of its own and the outer query has nothing but that condition, no grouping, ordering or limit.
 */
public final class MaxSubqueryToOrderBy implements AlignmentRule {
    private static final Pattern AGGREGATE = Pattern.compile("(?i)\\b(count|sum|avg|max|min)\\s*\\(");

    @Override
    public String name() {
        return "max-subquery-to-order-by";
    }

    @Override
    public Optional<String> apply(String sql, DatabaseSchema schema) {
        return SqlAst.parse(sql)
                .filter(PlainSelect.class::isInstance).map(PlainSelect.class::cast)
                .flatMap(this::rewrite);
    }

    private Optional<String> rewrite(PlainSelect outer) {
        if (!(outer.getWhere() instanceof EqualsTo equals) || outer.getGroupBy() != null || outer.getHaving() != null
                || outer.getOrderByElements() != null || outer.getLimit() != null
                || (outer.getJoins() != null && !outer.getJoins().isEmpty())
                || !(outer.getFromItem() instanceof Table outerTable)
                || outer.getSelectItems().stream().anyMatch(i -> AGGREGATE.matcher(i.toString()).find())) {
            return Optional.empty();
        }
        Expression left = equals.getLeftExpression();
        Expression right = equals.getRightExpression();
        Column column = left instanceof Column c ? c : right instanceof Column c2 ? c2 : null;
        ParenthesedSelect sub = left instanceof ParenthesedSelect s ? s : right instanceof ParenthesedSelect s2 ? s2 : null;
        if (column == null || sub == null || !(sub.getSelect() instanceof PlainSelect inner)) {
            return Optional.empty();
        }
        if (inner.getWhere() != null || inner.getGroupBy() != null || inner.getHaving() != null
                || (inner.getJoins() != null && !inner.getJoins().isEmpty()) || inner.getSelectItems().size() != 1
                || !(inner.getFromItem() instanceof Table innerTable)
                || !SqlAst.unquote(innerTable.getName()).equalsIgnoreCase(SqlAst.unquote(outerTable.getName()))) {
            return Optional.empty();
        }
        if (!(inner.getSelectItems().get(0).getExpression() instanceof Function function)
                || function.getParameters() == null || function.getParameters().size() != 1
                || !(function.getParameters().get(0) instanceof Column aggregated)
                || !SqlAst.unquote(aggregated.getColumnName()).equalsIgnoreCase(SqlAst.unquote(column.getColumnName()))) {
            return Optional.empty();
        }
        String fn = function.getName().toUpperCase(Locale.ROOT);
        if (!fn.equals("MAX") && !fn.equals("MIN")) {
            return Optional.empty();
        }
        outer.setWhere(null);
        outer.setOrderByElements(List.of(new OrderByElement().withExpression(column).withAsc(fn.equals("MIN"))
                .withAscDescPresent(true)));
        outer.setLimit(new Limit().withRowCount(new LongValue(1)));
        return Optional.of(outer.toString());
    }
}

package io.flowsql.agents.opensearch.align;

import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.PlainSelect;

/**
 * Style alignment: a query that orders by a nullable column and keeps the first rows (LIMIT) gets
 * {@code column IS NOT NULL}, since SQLite sorts NULL first in ascending order and "the lowest X" never
 * means a row without X. Skipped for grouped queries (the filter would change the groups).
 */
public final class NotNullOnOrderBy implements AlignmentRule {

    @Override
    public String name() {
        return "not-null-on-order-by";
    }

    @Override
    public Optional<String> apply(String sql, DatabaseSchema schema) {
        return SqlAst.parse(sql)
                .filter(PlainSelect.class::isInstance).map(PlainSelect.class::cast)
                .flatMap(select -> rewrite(select, schema));
    }

    private Optional<String> rewrite(PlainSelect select, DatabaseSchema schema) {
        if (select.getLimit() == null || select.getOrderByElements() == null || select.getGroupBy() != null) {
            return Optional.empty();
        }
        Map<String, String> tables = SqlAst.tablesOf(select);
        String where = select.getWhere() == null ? "" : select.getWhere().toString().toLowerCase(Locale.ROOT);
        List<Expression> additions = new ArrayList<>();
        for (OrderByElement element : select.getOrderByElements()) {
            if (!(element.getExpression() instanceof Column column)) {
                continue;
            }
            Optional<ColumnSchema> resolved = SqlAst.resolve(column, tables, schema);
            boolean alreadyFiltered = where.contains(column.toString().toLowerCase(Locale.ROOT) + " is not null");
            if (resolved.isPresent() && resolved.get().nullable() && !resolved.get().primaryKey() && !alreadyFiltered) {
                additions.add(new IsNullExpression(column).withNot(true));
            }
        }
        if (additions.isEmpty()) {
            return Optional.empty();
        }
        Expression condition = select.getWhere();
        if (condition instanceof OrExpression) {
            condition = new ParenthesedExpressionList<>(condition);
        }
        for (Expression addition : additions) {
            condition = condition == null ? addition : new AndExpression(condition, addition);
        }
        select.setWhere(condition);
        return Optional.of(select.toString());
    }
}

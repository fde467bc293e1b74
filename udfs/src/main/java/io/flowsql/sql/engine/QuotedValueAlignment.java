package io.flowsql.sql.engine;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.relational.ComparisonOperator;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * The alignment of SQLite's SQL on engines that read double quotes as names and tell case apart in LIKE (PostgreSQL,
 * DuckDB; {@link EngineProfile#alignSpiderSql}'s default): a double-quoted value compared with a column
 * ({@code Country = "France"}) that names no column or table of the schema becomes a text literal ({@code 'France'}), as
 * SQLite reads it (on these engines it is an unknown column); {@code LIKE} becomes {@code ILIKE}, keeping SQLite's
 * case-blind match.
 */
final class QuotedValueAlignment {

    private QuotedValueAlignment() {}

    /** The statement rewritten in place and printed, or empty when nothing changed. */
    static Optional<String> align(Statement statement, Set<String> names) {
        Rewriter rewriter = new Rewriter(names);
        rewriter.getTables(statement);
        return rewriter.changed ? Optional.of(statement.toString()) : Optional.empty();
    }

    /** Walks every expression of the statement (subqueries included) and rewrites in place. */
    private static final class Rewriter extends TablesNamesFinder<Void> {
        private final Set<String> names;
        private boolean changed;

        Rewriter(Set<String> names) {
            this.names = names;
        }

        @Override
        public <S> Void visit(EqualsTo equalsTo, S context) {
            comparison(equalsTo);
            return super.visit(equalsTo, context);
        }

        @Override
        public <S> Void visit(NotEqualsTo notEqualsTo, S context) {
            comparison(notEqualsTo);
            return super.visit(notEqualsTo, context);
        }

        @Override
        public <S> Void visit(LikeExpression like, S context) {
            if (like.getLikeKeyWord() == LikeExpression.KeyWord.LIKE) {
                like.setLikeKeyWord(LikeExpression.KeyWord.ILIKE);
                changed = true;
            }
            Expression pattern = literal(like.getRightExpression());
            if (pattern != like.getRightExpression()) {
                like.setRightExpression(pattern);
            }
            return super.visit(like, context);
        }

        @Override
        @SuppressWarnings("unchecked")
        public <S> Void visit(InExpression in, S context) {
            if (in.getLeftExpression() instanceof Column && in.getRightExpression() instanceof ExpressionList<?> list) {
                ExpressionList<Expression> items = (ExpressionList<Expression>) list;
                for (int i = 0; i < items.size(); i++) {
                    items.set(i, literal(items.get(i)));
                }
            }
            return super.visit(in, context);
        }

        private void comparison(ComparisonOperator comparison) {
            if (comparison.getLeftExpression() instanceof Column && !(comparison.getRightExpression() instanceof Column c
                    && !quoted(c))) {
                comparison.setRightExpression(literal(comparison.getRightExpression()));
            } else if (comparison.getRightExpression() instanceof Column && !(comparison.getLeftExpression() instanceof Column c
                    && !quoted(c))) {
                comparison.setLeftExpression(literal(comparison.getLeftExpression()));
            }
        }

        /** The expression, or a text literal when it is a double-quoted name the schema does not have. */
        private Expression literal(Expression expression) {
            if (expression instanceof Column column && quoted(column)) {
                String name = column.getColumnName();
                String text = name.substring(1, name.length() - 1).replace("\"\"", "\"");
                if (!names.contains(text.toLowerCase(Locale.ROOT))) {
                    changed = true;
                    return new StringValue(text.replace("'", "''"));
                }
            }
            return expression;
        }

        private static boolean quoted(Column column) {
            String name = column.getColumnName();
            return column.getTable() == null && name.length() > 1 && name.startsWith("\"") && name.endsWith("\"");
        }
    }
}

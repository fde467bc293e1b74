package io.flowsql.agents.opensearch.align;

import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.engine.SqlParsing;
import io.flowsql.sql.TableSchema;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
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
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * Dialect alignment, on a PostgreSQL or DuckDB database only: the habits of a model trained on SQLite's SQL written
 * in the engine's. A double-quoted value compared with a column ({@code Country = "France"}) that names no column of
 * the schema becomes a text literal ({@code 'France'}), as SQLite reads it (on these engines it is an unknown column);
 * {@code LIKE} becomes {@code ILIKE}, keeping SQLite's case-blind match (on these engines LIKE tells case apart).
 * SQLite's SQL is left alone.
 */
public final class DialectAlignment implements AlignmentRule {
    public static final String NAME = "dialect";
    private final Function<String, DatabaseEngine> engineOf;

    /** @param engineOf the engine behind a database id */
    public DialectAlignment(Function<String, DatabaseEngine> engineOf) {
        this.engineOf = engineOf;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<String> apply(String sql, DatabaseSchema schema) {
        DatabaseEngine engine = engineOf.apply(schema.dbId());
        if (engine.profile().runsSpiderSqlAsWritten()) {
            return Optional.empty();
        }
        Optional<Statement> parsed = SqlParsing.parse(sql, engine).filter(Select.class::isInstance);
        if (parsed.isEmpty()) {
            return Optional.empty();
        }
        Set<String> columns = schema.tables().stream().flatMap(t -> t.columns().stream())
                .map(c -> c.name().toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        schema.tables().stream().map(TableSchema::name).map(n -> n.toLowerCase(Locale.ROOT)).forEach(columns::add);
        Rewriter rewriter = new Rewriter(columns);
        rewriter.getTables(parsed.get());
        return rewriter.changed ? Optional.of(parsed.get().toString()) : Optional.empty();
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

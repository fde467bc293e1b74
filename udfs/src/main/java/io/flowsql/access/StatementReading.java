package io.flowsql.access;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.ArrayExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.NextValExpression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.piped.FromQuery;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PivotQuery;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * What one parsed statement reads, found scope by scope: the relations it names (a {@code WITH} name hides a relation
 * of that name only inside the query that declares it and the queries nested in it, and inside its own body only when
 * {@code RECURSIVE}; an alias never hides anything), the functions it calls and the types it casts to. JSqlParser's
 * own {@link TablesNamesFinder} lets a {@code WITH} name or a sub-query alias hide a table everywhere in the
 * statement; this walker reuses its traversal and keeps its own scopes.
 */
final class StatementReading extends TablesNamesFinder<Void> {
    /** Relations as written, unquoted ({@code schema.table} when qualified). */
    final Set<String> relations = new LinkedHashSet<>();
    /** Function names as written, lower case ({@code schema.fn} when qualified). */
    final Set<String> functions = new LinkedHashSet<>();
    /** Type names cast to, lower case, without their parameters. */
    final Set<String> castTypes = new LinkedHashSet<>();

    /** The {@code WITH} names declared by each query being walked, innermost first, as written. */
    private final Deque<Set<String>> scopes = new ArrayDeque<>();
    /** The nodes of {@link #CHECKED} kinds the visitor reached. */
    private final Set<Object> reached = Collections.newSetFromMap(new IdentityHashMap<>());

    /** Kinds of node that must all be reached for the reading to be complete. */
    private static final List<Class<?>> CHECKED = List.of(PlainSelect.class, Values.class, FromQuery.class, Table.class,
            Function.class, AnalyticExpression.class, CastExpression.class, NextValExpression.class);

    private StatementReading() {}

    /**
     * Reads {@code statement}.
     *
     * @throws IllegalStateException when part of the statement (a sub-query, a relation, a function, a cast) was not
     *                               reached by the walk, so what it reads cannot be told
     */
    static StatementReading of(Statement statement) {
        StatementReading reading = new StatementReading();
        reading.init(false);
        statement.accept(reading, null);
        List<Class<?>> kinds = new ArrayList<>(CHECKED);
        kinds.add(Column.class);
        kinds.add(AllTableColumns.class);
        Set<Object> nodes = AstNodes.of(statement, kinds);
        Set<Object> qualifiers = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Object node : nodes) {
            if (node instanceof Column column && column.getTable() != null) {
                qualifiers.add(column.getTable());
            } else if (node instanceof AllTableColumns all && all.getTable() != null) {
                qualifiers.add(all.getTable());
            }
        }
        for (Object node : nodes) {
            boolean checked = CHECKED.stream().anyMatch(kind -> kind.isInstance(node));
            if (checked && !reading.reached.contains(node) && !qualifiers.contains(node)) {
                throw new IllegalStateException("unread part: " + node);
            }
        }
        return reading;
    }

    @Override
    public <S> Void visit(Table table, S context) {
        reached.add(table);
        if (table.getSchemaName() == null && table.getDatabaseName() == null && hiddenByWith(table.getName())) {
            return null;
        }
        relations.add(unquote(table.getFullyQualifiedName()));
        return null;
    }

    @Override
    public <S> Void visit(WithItem<?> item, S context) {
        String name = item.getAliasName();
        if (item.isRecursive() && name != null) {
            declare(name);
        }
        if (item.getSelect() != null) {
            item.getSelect().accept((net.sf.jsqlparser.statement.select.SelectVisitor<Void>) this, context);
        } else if (item.getParenthesedStatement() != null) {
            item.getParenthesedStatement().accept((net.sf.jsqlparser.statement.StatementVisitor<Void>) this, context);
        }
        if (name != null) {
            declare(name);
        }
        return null;
    }

    @Override
    public <S> Void visit(Select select, S context) {
        return scoped(() -> super.visit(select, context));
    }

    @Override
    public <S> Void visit(PlainSelect select, S context) {
        reached.add(select);
        return scoped(() -> super.visit(select, context));
    }

    @Override
    public <S> Void visit(ParenthesedSelect select, S context) {
        return scoped(() -> super.visit(select, context));
    }

    @Override
    public <S> Void visit(SetOperationList select, S context) {
        return scoped(() -> super.visit(select, context));
    }

    @Override
    public <S> Void visit(PivotQuery select, S context) {
        return scoped(() -> super.visit(select, context));
    }

    @Override
    public <S> Void visit(FromQuery select, S context) {
        reached.add(select);
        return scoped(() -> super.visit(select, context));
    }

    @Override
    public <S> Void visit(Function function, S context) {
        reached.add(function);
        functions.add(unquote(String.join(".", function.getMultipartName())).toLowerCase(Locale.ROOT));
        return super.visit(function, context);
    }

    @Override
    public <S> Void visit(AnalyticExpression expression, S context) {
        reached.add(expression);
        functions.add(unquote(expression.getName()).toLowerCase(Locale.ROOT));
        return super.visit(expression, context);
    }

    @Override
    public <S> Void visit(NextValExpression expression, S context) {
        reached.add(expression);
        functions.add("nextval");
        return super.visit(expression, context);
    }

    @Override
    public <S> Void visit(CastExpression cast, S context) {
        reached.add(cast);
        if (cast.getColDataType() != null) {
            String type = cast.getColDataType().getDataType();
            castTypes.add(unquote(type == null ? "" : type).toLowerCase(Locale.ROOT).trim());
        } else {
            castTypes.add("");
        }
        return super.visit(cast, context);
    }

    @Override
    public <S> Void visit(Values values, S context) {
        reached.add(values);
        return super.visit(values, context);
    }

    /** JSqlParser visits an index only when a slice start is present; every part is visited here. */
    @Override
    public <S> Void visit(ArrayExpression array, S context) {
        for (Expression part : new Expression[] {array.getObjExpression(), array.getIndexExpression(),
                array.getStartIndexExpression(), array.getStopIndexExpression()}) {
            if (part != null) {
                part.accept(this, context);
            }
        }
        return null;
    }

    /** Runs a query's walk in a scope of its own: the {@code WITH} names it declares end with it. */
    private Void scoped(Supplier<Void> walk) {
        scopes.push(new HashSet<>());
        try {
            return walk.get();
        } finally {
            scopes.pop();
        }
    }

    private void declare(String name) {
        if (scopes.isEmpty()) {
            scopes.push(new HashSet<>());
        }
        scopes.peek().add(name);
    }

    /**
     * Whether an unqualified name is a {@code WITH} name in scope. Unquoted names compare without case (every engine
     * folds them); a quoted one on either side compares exactly, so {@code WITH "Secret"} never hides {@code secret}.
     */
    private boolean hiddenByWith(String name) {
        for (Set<String> scope : scopes) {
            for (String declared : scope) {
                boolean same = quoted(declared) || quoted(name)
                        ? unquote(declared).equals(unquote(name)) : declared.equalsIgnoreCase(name);
                if (same) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean quoted(String name) {
        return !name.isEmpty() && "\"`[".indexOf(name.charAt(0)) >= 0;
    }

    static String unquote(String name) {
        return name.replace("\"", "").replace("`", "").replace("[", "").replace("]", "");
    }
}

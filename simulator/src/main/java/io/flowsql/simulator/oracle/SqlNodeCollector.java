package io.flowsql.simulator.oracle;

import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.util.TablesNamesFinder;

/** Walks a parsed statement once and keeps every column reference and function call it meets. */
final class SqlNodeCollector extends TablesNamesFinder<Void> {
    private final List<Column> columns = new ArrayList<>();
    private final List<Function> functions = new ArrayList<>();

    static SqlNodeCollector of(Statement statement) {
        SqlNodeCollector collector = new SqlNodeCollector();
        collector.getTables(statement);
        return collector;
    }

    @Override
    public <S> Void visit(Column column, S context) {
        columns.add(column);
        return super.visit(column, context);
    }

    @Override
    public <S> Void visit(Function function, S context) {
        functions.add(function);
        return super.visit(function, context);
    }

    List<Column> columns() {
        return columns;
    }

    List<Function> functions() {
        return functions;
    }
}

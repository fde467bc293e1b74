package io.flowsql.sql.exec;

import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * Finds a call to a forbidden function in a parsed statement, comparing the function's name with its quotes
 * removed ({@code "load_extension"}, {@code `load_extension`} and {@code [load_extension]} are all load_extension).
 */
final class FunctionNames extends TablesNamesFinder<Void> {

    private final Set<String> forbidden;
    private String found;

    private FunctionNames(Set<String> forbidden) {
        this.forbidden = forbidden;
    }

    /** The first forbidden function the statement calls, or null. A statement the walk cannot follow is judged by its text alone. */
    static String firstForbidden(Statement statement, Set<String> forbidden) {
        FunctionNames finder = new FunctionNames(forbidden);
        try {
            finder.getTables(statement);
        } catch (RuntimeException e) {
            // an unsupported node ends the walk; the text check on unquoted names has run already
        }
        return finder.found;
    }

    @Override
    public <S> Void visit(Function function, S context) {
        if (found == null && function.getMultipartName() != null) {
            for (String part : function.getMultipartName()) {
                String name = unquote(part);
                if (forbidden.contains(name)) {
                    found = name;
                }
            }
        }
        return super.visit(function, context);
    }

    static String unquote(String name) {
        if (name == null) {
            return "";
        }
        String n = name.strip();
        if (n.length() >= 2) {
            char first = n.charAt(0);
            char last = n.charAt(n.length() - 1);
            if ((first == '"' && last == '"') || (first == '`' && last == '`') || (first == '[' && last == ']')) {
                n = n.substring(1, n.length() - 1);
            }
        }
        return n.toLowerCase(Locale.ROOT);
    }
}

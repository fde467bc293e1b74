package io.flowsql.benchmarks.eval.mmsql;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Spider's {@code process_sql} as MMSQL ships it ({@code tools/process_sql.py}): SQL text to the nested structure the
 * exact-set match compares, written again in Java with the same steps and the same failures. Tuples and lists are
 * {@link List}s, dicts {@link Map}s, so {@code equals} is Python's {@code ==} for what the parser builds (ids are
 * strings, values are strings with their quotes, doubles, column units or nested SQL). Anything the Python code would
 * raise on (a failed assert, a missing key, an index past the end) is a {@link ParseFailure}.
 */
final class SpiderSqlParse {
    static final List<String> CLAUSE_KEYWORDS = List.of("select", "from", "where", "group", "order", "limit", "intersect",
            "union", "except");
    static final List<String> JOIN_KEYWORDS = List.of("join", "on", "as");
    static final List<String> WHERE_OPS = List.of("not", "between", "=", ">", "<", ">=", "<=", "!=", "in", "like", "is",
            "exists");
    static final List<String> UNIT_OPS = List.of("none", "-", "+", "*", "/");
    static final List<String> AGG_OPS = List.of("none", "max", "min", "count", "sum", "avg");
    static final List<String> COND_OPS = List.of("and", "or");
    static final List<String> SQL_OPS = List.of("intersect", "union", "except");
    static final List<String> ORDER_OPS = List.of("desc", "asc");
    private static final Pattern PY_FLOAT = Pattern.compile(
            "\\s*[+-]?((\\d(_?\\d)*)?\\.?\\d(_?\\d)*([eE][+-]?\\d(_?\\d)*)?|\\d(_?\\d)*\\.|inf|infinity|nan)\\s*",
            Pattern.CASE_INSENSITIVE);

    /** What Python would have raised. */
    static final class ParseFailure extends RuntimeException {
        ParseFailure(String message) {
            super(message, null, false, false);
        }
    }

    /** A Python tuple (or list) that may hold None. */
    static List<Object> tuple(Object... items) {
        return Collections.unmodifiableList(Arrays.asList(items));
    }

    /** The schema: table to its columns (lower case), and the id map of process_sql's Schema. */
    record Schema(Map<String, List<String>> tables, Map<String, String> idMap) {
        static Schema of(Map<String, List<String>> tables) {
            Map<String, String> ids = new LinkedHashMap<>();
            ids.put("*", "__all__");
            tables.forEach((t, cols) -> cols.forEach(c -> ids.put(t + "." + c, "__" + t + "." + c + "__")));
            tables.keySet().forEach(t -> ids.put(t, "__" + t + "__"));
            return new Schema(tables, ids);
        }

        String id(String key) {
            String v = idMap.get(key);
            if (v == null) {
                throw new ParseFailure("KeyError: " + key);
            }
            return v;
        }
    }

    private final List<String> toks;
    private final Map<String, String> tablesWithAlias;
    private final Schema schema;

    private SpiderSqlParse(List<String> toks, Map<String, String> tablesWithAlias, Schema schema) {
        this.toks = toks;
        this.tablesWithAlias = tablesWithAlias;
        this.schema = schema;
    }

    /** {@code get_sql(schema, query)}. */
    static Map<String, Object> getSql(Schema schema, String query) {
        List<String> toks = tokenize(query);
        Map<String, String> tables = scanAlias(toks);
        for (String key : schema.tables().keySet()) {
            if (tables.containsKey(key)) {
                throw new ParseFailure("AssertionError: Alias " + key + " has the same name in table");
            }
            tables.put(key, key);
        }
        return new SpiderSqlParse(toks, tables, schema).parseSql(0).sql;
    }

    /** {@code process_sql.tokenize}. */
    static List<String> tokenize(String query) {
        String string = query.replace('\'', '"');
        List<Integer> quotes = new ArrayList<>();
        for (int i = 0; i < string.length(); i++) {
            if (string.charAt(i) == '"') {
                quotes.add(i);
            }
        }
        if (quotes.size() % 2 != 0) {
            throw new ParseFailure("AssertionError: Unexpected quote");
        }
        Map<String, String> vals = new LinkedHashMap<>();
        for (int i = quotes.size() - 1; i >= 0; i -= 2) {
            int q1 = quotes.get(i - 1);
            int q2 = quotes.get(i);
            String key = "__val_" + q1 + "_" + q2 + "__";
            vals.put(key, string.substring(q1, q2 + 1));
            string = string.substring(0, q1) + key + string.substring(q2 + 1);
        }
        List<String> toks = new ArrayList<>();
        for (String w : WordTokens.tokenize(string)) {
            String lower = w.toLowerCase(java.util.Locale.ROOT);
            toks.add(vals.getOrDefault(lower, lower));
        }
        List<Integer> eqs = new ArrayList<>();
        for (int i = 0; i < toks.size(); i++) {
            if (toks.get(i).equals("=")) {
                eqs.add(i);
            }
        }
        Collections.reverse(eqs);
        for (int eq : eqs) {
            String pre = at(toks, eq - 1);
            if (pre.equals("!") || pre.equals(">") || pre.equals("<")) {
                List<String> next = new ArrayList<>(slice(toks, 0, eq - 1));
                next.add(pre + "=");
                next.addAll(slice(toks, eq + 1, toks.size()));
                toks = next;
            }
        }
        return toks;
    }

    /** Python's {@code list[i]}: negative counts from the end; past either end raises IndexError. */
    static String at(List<String> list, int i) {
        int j = i < 0 ? list.size() + i : i;
        if (j < 0 || j >= list.size()) {
            throw new ParseFailure("IndexError: list index out of range");
        }
        return list.get(j);
    }

    /** Python's {@code list[a:b]} for a, b that may be negative or past the end. */
    static List<String> slice(List<String> list, int a, int b) {
        int n = list.size();
        int from = Math.max(0, Math.min(n, a < 0 ? n + a : a));
        int to = Math.max(0, Math.min(n, b < 0 ? n + b : b));
        return from >= to ? List.of() : list.subList(from, to);
    }

    private static Map<String, String> scanAlias(List<String> toks) {
        Map<String, String> alias = new LinkedHashMap<>();
        for (int i = 0; i < toks.size(); i++) {
            if (toks.get(i).equals("as")) {
                alias.put(at(toks, i + 1), at(toks, i - 1));
            }
        }
        return alias;
    }

    private String tok(int i) {
        return at(toks, i);
    }

    private boolean tokIs(int i, String s) {
        return i < toks.size() && toks.get(i).equals(s);
    }

    private String alias(String name) {
        String t = tablesWithAlias.get(name);
        if (t == null) {
            throw new ParseFailure("KeyError: " + name);
        }
        return t;
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new ParseFailure("AssertionError: " + what);
        }
    }

    /** A result: the next index and the value parsed. */
    private record At(int idx, Object value) {}

    private At parseCol(List<String> t, int start, List<String> defaultTables) {
        String tok = at(t, start);
        if (tok.equals("*")) {
            return new At(start + 1, schema.id(tok));
        }
        if (tok.contains(".")) {
            String[] parts = tok.split("\\.", -1);
            if (parts.length != 2) {
                throw new ParseFailure("ValueError: too many values to unpack");
            }
            return new At(start + 1, schema.id(alias(parts[0]) + "." + parts[1]));
        }
        check(defaultTables != null && !defaultTables.isEmpty(), "Default tables should not be None or empty");
        for (String a : defaultTables) {
            String table = alias(a);
            List<String> cols = schema.tables().get(table);
            if (cols == null) {
                throw new ParseFailure("KeyError: " + table);
            }
            if (cols.contains(tok)) {
                return new At(start + 1, schema.id(table + "." + tok));
            }
        }
        throw new ParseFailure("AssertionError: Error col: " + tok);
    }

    private At parseColUnit(List<String> t, int start, List<String> defaultTables) {
        int idx = start;
        int len = t.size();
        boolean block = false;
        boolean distinct = false;
        if (at(t, idx).equals("(")) {
            block = true;
            idx++;
        }
        if (AGG_OPS.contains(at(t, idx))) {
            int agg = AGG_OPS.indexOf(at(t, idx));
            idx++;
            check(idx < len && t.get(idx).equals("("), "(");
            idx++;
            if (at(t, idx).equals("distinct")) {
                idx++;
                distinct = true;
            }
            At col = parseCol(t, idx, defaultTables);
            idx = col.idx();
            check(idx < len && t.get(idx).equals(")"), ")");
            idx++;
            return new At(idx, tuple(agg, col.value(), distinct));
        }
        if (at(t, idx).equals("distinct")) {
            idx++;
            distinct = true;
        }
        At col = parseCol(t, idx, defaultTables);
        idx = col.idx();
        if (block) {
            check(at(t, idx).equals(")"), ")");
            idx++;
        }
        return new At(idx, tuple(0, col.value(), distinct));
    }

    private At parseValUnit(int start, List<String> defaultTables) {
        int idx = start;
        boolean block = false;
        if (tok(idx).equals("(")) {
            block = true;
            idx++;
        }
        Object unit2 = null;
        int op = 0;
        At unit1 = parseColUnit(toks, idx, defaultTables);
        idx = unit1.idx();
        if (idx < toks.size() && UNIT_OPS.contains(toks.get(idx))) {
            op = UNIT_OPS.indexOf(toks.get(idx));
            idx++;
            At u2 = parseColUnit(toks, idx, defaultTables);
            idx = u2.idx();
            unit2 = u2.value();
        }
        if (block) {
            check(tok(idx).equals(")"), ")");
            idx++;
        }
        return new At(idx, tuple(op, unit1.value(), unit2));
    }

    private record TableUnit(int idx, String id, String name) {}

    private TableUnit parseTableUnit(int start) {
        String key = alias(tok(start));
        int idx = start + 1 < toks.size() && toks.get(start + 1).equals("as") ? start + 3 : start + 1;
        return new TableUnit(idx, schema.id(key), key);
    }

    private At parseValue(int start, List<String> defaultTables) {
        int idx = start;
        boolean block = false;
        if (tok(idx).equals("(")) {
            block = true;
            idx++;
        }
        Object val;
        if (tok(idx).equals("select")) {
            Parsed p = parseSql(idx);
            idx = p.idx;
            val = p.sql;
        } else if (tok(idx).contains("\"")) {
            val = tok(idx);
            idx++;
        } else if (PY_FLOAT.matcher(tok(idx)).matches()) {
            val = pyFloat(tok(idx));
            idx++;
        } else {
            int end = idx;
            while (end < toks.size() && !toks.get(end).equals(",") && !toks.get(end).equals(")")
                    && !toks.get(end).equals("and") && !CLAUSE_KEYWORDS.contains(toks.get(end))
                    && !JOIN_KEYWORDS.contains(toks.get(end))) {
                end++;
            }
            At col = parseColUnit(slice(toks, start, end), 0, defaultTables);
            val = col.value();
            idx = end;
        }
        if (block) {
            check(tok(idx).equals(")"), ")");
            idx++;
        }
        return new At(idx, val);
    }

    private static double pyFloat(String s) {
        String t = s.strip().replace("_", "").toLowerCase(java.util.Locale.ROOT);
        String unsigned = t.startsWith("+") || t.startsWith("-") ? t.substring(1) : t;
        double sign = t.startsWith("-") ? -1 : 1;
        if (unsigned.equals("inf") || unsigned.equals("infinity")) {
            return sign * Double.POSITIVE_INFINITY;
        }
        if (unsigned.equals("nan")) {
            return Double.NaN;
        }
        return Double.parseDouble(t);
    }

    private At parseCondition(int start, List<String> defaultTables) {
        int idx = start;
        int len = toks.size();
        List<Object> conds = new ArrayList<>();
        while (idx < len) {
            At valUnit = parseValUnit(idx, defaultTables);
            idx = valUnit.idx();
            boolean not = false;
            if (tok(idx).equals("not")) {
                not = true;
                idx++;
            }
            check(idx < len && WHERE_OPS.contains(toks.get(idx)), "Error condition");
            int op = WHERE_OPS.indexOf(toks.get(idx));
            idx++;
            Object val1;
            Object val2 = null;
            if (op == WHERE_OPS.indexOf("between")) {
                At v1 = parseValue(idx, defaultTables);
                idx = v1.idx();
                val1 = v1.value();
                check(tok(idx).equals("and"), "and");
                idx++;
                At v2 = parseValue(idx, defaultTables);
                idx = v2.idx();
                val2 = v2.value();
            } else {
                At v1 = parseValue(idx, defaultTables);
                idx = v1.idx();
                val1 = v1.value();
            }
            conds.add(tuple(not, op, valUnit.value(), val1, val2));
            if (idx < len && (CLAUSE_KEYWORDS.contains(toks.get(idx)) || toks.get(idx).equals(")")
                    || toks.get(idx).equals(";") || JOIN_KEYWORDS.contains(toks.get(idx)))) {
                break;
            }
            if (idx < len && COND_OPS.contains(toks.get(idx))) {
                conds.add(toks.get(idx));
                idx++;
            }
        }
        return new At(idx, conds);
    }

    private At parseSelect(int start, List<String> defaultTables) {
        int idx = start;
        int len = toks.size();
        check(tok(idx).equals("select"), "'select' not found");
        idx++;
        boolean distinct = false;
        if (idx < len && toks.get(idx).equals("distinct")) {
            idx++;
            distinct = true;
        }
        List<Object> units = new ArrayList<>();
        while (idx < len && !CLAUSE_KEYWORDS.contains(toks.get(idx))) {
            int agg = 0;
            if (AGG_OPS.contains(toks.get(idx))) {
                agg = AGG_OPS.indexOf(toks.get(idx));
                idx++;
            }
            At v = parseValUnit(idx, defaultTables);
            idx = v.idx();
            units.add(tuple(agg, v.value()));
            if (idx < len && toks.get(idx).equals(",")) {
                idx++;
            }
        }
        return new At(idx, tuple(distinct, units));
    }

    private record From(int idx, List<Object> tableUnits, List<Object> conds, List<String> defaultTables) {}

    private From parseFrom(int start) {
        int from = -1;
        for (int i = Math.max(0, start); i < toks.size(); i++) {
            if (toks.get(i).equals("from")) {
                from = i;
                break;
            }
        }
        check(from >= 0, "'from' not found");
        int len = toks.size();
        int idx = from + 1;
        List<String> defaults = new ArrayList<>();
        List<Object> units = new ArrayList<>();
        List<Object> conds = new ArrayList<>();
        while (idx < len) {
            boolean block = false;
            if (tok(idx).equals("(")) {
                block = true;
                idx++;
            }
            if (tok(idx).equals("select")) {
                Parsed p = parseSql(idx);
                idx = p.idx;
                units.add(tuple("sql", p.sql));
            } else {
                if (idx < len && toks.get(idx).equals("join")) {
                    idx++;
                }
                TableUnit tu = parseTableUnit(idx);
                idx = tu.idx();
                units.add(tuple("table_unit", tu.id()));
                defaults.add(tu.name());
            }
            if (idx < len && toks.get(idx).equals("on")) {
                idx++;
                At c = parseCondition(idx, defaults);
                idx = c.idx();
                if (!conds.isEmpty()) {
                    conds.add("and");
                }
                conds.addAll((List<?>) c.value());
            }
            if (block) {
                check(tok(idx).equals(")"), ")");
                idx++;
            }
            if (idx < len && (CLAUSE_KEYWORDS.contains(toks.get(idx)) || toks.get(idx).equals(")")
                    || toks.get(idx).equals(";"))) {
                break;
            }
        }
        return new From(idx, units, conds, defaults);
    }

    private At parseClauseConds(int start, String keyword, List<String> defaultTables) {
        if (start >= toks.size() || !toks.get(start).equals(keyword)) {
            return new At(start, List.of());
        }
        return parseCondition(start + 1, defaultTables);
    }

    /** The index after "{keyword} by", or -1 when the clause is absent (asserting "by" as process_sql does). */
    private int afterBy(int start, String keyword) {
        if (start >= toks.size() || !toks.get(start).equals(keyword)) {
            return -1;
        }
        check(tok(start + 1).equals("by"), "by");
        return start + 2;
    }

    /** The loop condition of the group-by and order-by clauses: not at a clause keyword, ')' or ';'. */
    private boolean inList(int idx) {
        return idx < toks.size() && !(CLAUSE_KEYWORDS.contains(toks.get(idx)) || toks.get(idx).equals(")")
                || toks.get(idx).equals(";"));
    }

    private boolean comma(int idx) {
        return idx < toks.size() && toks.get(idx).equals(",");
    }

    private At parseGroupBy(int start, List<String> defaultTables) {
        List<Object> units = new ArrayList<>();
        int idx = afterBy(start, "group");
        if (idx < 0) {
            return new At(start, units);
        }
        while (inList(idx)) {
            At c = parseColUnit(toks, idx, defaultTables);
            idx = c.idx();
            units.add(c.value());
            if (!comma(idx)) {
                break;
            }
            idx++;
        }
        return new At(idx, units);
    }

    private At parseOrderBy(int start, List<String> defaultTables) {
        List<Object> units = new ArrayList<>();
        String order = "asc";
        int idx = afterBy(start, "order");
        if (idx < 0) {
            return new At(start, units);
        }
        while (inList(idx)) {
            At v = parseValUnit(idx, defaultTables);
            idx = v.idx();
            units.add(v.value());
            if (idx < toks.size() && ORDER_OPS.contains(toks.get(idx))) {
                order = toks.get(idx);
                idx++;
            }
            if (!comma(idx)) {
                break;
            }
            idx++;
        }
        return new At(idx, tuple(order, units));
    }

    private At parseLimit(int start) {
        if (start < toks.size() && toks.get(start).equals("limit")) {
            at(toks, start + 1);
            return new At(start + 2, 1);
        }
        return new At(start, null);
    }

    private int skipSemicolon(int start) {
        int idx = start;
        while (idx < toks.size() && toks.get(idx).equals(";")) {
            idx++;
        }
        return idx;
    }

    private record Parsed(int idx, Map<String, Object> sql) {}

    private Parsed parseSql(int start) {
        boolean block = false;
        int len = toks.size();
        int idx = start;
        Map<String, Object> sql = new LinkedHashMap<>();
        if (tok(idx).equals("(")) {
            block = true;
            idx++;
        }
        From from = parseFrom(start);
        Map<String, Object> fromNode = new LinkedHashMap<>();
        fromNode.put("table_units", from.tableUnits());
        fromNode.put("conds", from.conds());
        sql.put("from", fromNode);
        sql.put("select", parseSelect(idx, from.defaultTables()).value());
        idx = from.idx();
        At where = parseClauseConds(idx, "where", from.defaultTables());
        sql.put("where", where.value());
        At group = parseGroupBy(where.idx(), from.defaultTables());
        sql.put("groupBy", group.value());
        At having = parseClauseConds(group.idx(), "having", from.defaultTables());
        sql.put("having", having.value());
        At order = parseOrderBy(having.idx(), from.defaultTables());
        sql.put("orderBy", order.value());
        At limit = parseLimit(order.idx());
        sql.put("limit", limit.value());
        idx = skipSemicolon(limit.idx());
        if (block) {
            check(tok(idx).equals(")"), ")");
            idx++;
        }
        idx = skipSemicolon(idx);
        for (String op : SQL_OPS) {
            sql.put(op, null);
        }
        if (idx < len && SQL_OPS.contains(toks.get(idx))) {
            String op = toks.get(idx);
            idx++;
            Parsed iue = parseSql(idx);
            idx = iue.idx;
            sql.put(op, iue.sql);
        }
        return new Parsed(idx, sql);
    }
}

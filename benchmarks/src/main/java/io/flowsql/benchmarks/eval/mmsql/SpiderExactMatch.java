package io.flowsql.benchmarks.eval.mmsql;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * {@code Evaluator.eval_exact_match} of MMSQL's {@code accs_eval.py}: Spider's partial matches (select, select without
 * aggregation, where, where without operator, group, group with having, order, and/or, nested IUEN, keywords), each
 * of which must score F1 = 1, then the FROM table units compared sorted. Values are compared as parsed (the script's
 * DISABLE_VALUE flag is set but never used), and no foreign-key rebuild is applied.
 */
final class SpiderExactMatch {
    private SpiderExactMatch() {}

    @SuppressWarnings("unchecked")
    private static List<Object> list(Map<String, Object> sql, String key) {
        return (List<Object>) sql.get(key);
    }

    private static List<Object> everyOther(List<Object> l, int from) {
        List<Object> out = new ArrayList<>();
        for (int i = from; i < l.size(); i += 2) {
            out.add(l.get(i));
        }
        return out;
    }

    private static Object item(Object tuple, int i) {
        return ((List<?>) tuple).get(i);
    }

    /** get_scores: F1 is 1 exactly when the totals agree and every predicted unit matched. */
    private static boolean full(int count, int predTotal, int labelTotal) {
        return predTotal == labelTotal && count == predTotal;
    }

    /** 1 when every partial F1 is 1 and the sorted table units agree, else 0. */
    @SuppressWarnings("unchecked")
    static boolean exactMatch(Map<String, Object> pred, Map<String, Object> label) {
        if (!partialAllFull(pred, label)) {
            return false;
        }
        List<Object> labelTables = (List<Object>) ((Map<String, Object>) label.get("from")).get("table_units");
        if (labelTables.isEmpty()) {
            return true;
        }
        List<Object> predTables = (List<Object>) ((Map<String, Object>) pred.get("from")).get("table_units");
        return sorted(labelTables).equals(sorted(predTables));
    }

    /** Python's sorted over (type, id-or-sql) tuples: two different nested SQL dicts cannot be ordered (TypeError). */
    private static List<Object> sorted(List<Object> units) {
        List<Object> out = new ArrayList<>(units);
        out.sort((a, b) -> {
            int c = ((String) item(a, 0)).compareTo((String) item(b, 0));
            if (c != 0) {
                return c;
            }
            Object x = item(a, 1);
            Object y = item(b, 1);
            if (x instanceof String s && y instanceof String t) {
                return s.compareTo(t);
            }
            if (Objects.equals(x, y)) {
                return 0;
            }
            throw new SpiderSqlParse.ParseFailure("TypeError: '<' not supported between instances of 'dict' and 'dict'");
        });
        return out;
    }

    @SuppressWarnings("unchecked")
    private static boolean partialAllFull(Map<String, Object> pred, Map<String, Object> label) {
        List<Object> predSel = (List<Object>) item(pred.get("select"), 1);
        List<Object> labelSel = (List<Object>) item(label.get("select"), 1);
        return unitsFull(predSel, labelSel, 1)
                && unitsFull(everyOther(list(pred, "where"), 0), everyOther(list(label, "where"), 0), 2)
                && groupFull(pred, label) && havingFull(pred, label) && orderFull(pred, label)
                && new HashSet<>(everyOther(list(pred, "where"), 1)).equals(new HashSet<>(everyOther(list(label, "where"), 1)))
                && iuenFull(pred, label) && keywords(pred).equals(keywords(label));
    }

    /**
     * eval_sel / eval_where: every predicted unit found (and removed) among the gold's, and every predicted unit's part
     * {@code inner} (its value unit: "no AGG", "no OP") among the gold's parts, with equal totals.
     */
    private static boolean unitsFull(List<Object> predUnits, List<Object> labelUnits, int inner) {
        List<Object> labelLeft = new ArrayList<>(labelUnits);
        List<Object> labelInner = new ArrayList<>();
        labelUnits.forEach(u -> labelInner.add(item(u, inner)));
        int cnt = 0;
        int cntInner = 0;
        for (Object u : predUnits) {
            if (labelLeft.remove(u)) {
                cnt++;
            }
            if (labelInner.remove(item(u, inner))) {
                cntInner++;
            }
        }
        return full(cnt, predUnits.size(), labelUnits.size()) && full(cntInner, predUnits.size(), labelUnits.size());
    }

    private static List<Object> groupCols(Map<String, Object> sql) {
        List<Object> cols = new ArrayList<>();
        list(sql, "groupBy").forEach(u -> cols.add(item(u, 1)));
        return cols;
    }

    private static boolean groupFull(Map<String, Object> pred, Map<String, Object> label) {
        List<Object> predCols = new ArrayList<>();
        groupCols(pred).forEach(c -> predCols.add(stripTable((String) c)));
        List<Object> labelCols = new ArrayList<>();
        groupCols(label).forEach(c -> labelCols.add(stripTable((String) c)));
        int labelTotal = labelCols.size();
        int cnt = 0;
        for (Object c : predCols) {
            if (labelCols.remove(c)) {
                cnt++;
            }
        }
        return full(cnt, predCols.size(), labelTotal);
    }

    private static String stripTable(String col) {
        return col.contains(".") ? col.split("\\.", -1)[1] : col;
    }

    private static boolean havingFull(Map<String, Object> pred, Map<String, Object> label) {
        int predTotal = list(pred, "groupBy").isEmpty() ? 0 : 1;
        int labelTotal = list(label, "groupBy").isEmpty() ? 0 : 1;
        int cnt = predTotal == 1 && labelTotal == 1 && groupCols(pred).equals(groupCols(label))
                && pred.get("having").equals(label.get("having")) ? 1 : 0;
        return full(cnt, predTotal, labelTotal);
    }

    private static boolean orderFull(Map<String, Object> pred, Map<String, Object> label) {
        List<Object> po = list(pred, "orderBy");
        List<Object> lo = list(label, "orderBy");
        int predTotal = po.isEmpty() ? 0 : 1;
        int labelTotal = lo.isEmpty() ? 0 : 1;
        boolean limits = (pred.get("limit") == null) == (label.get("limit") == null);
        int cnt = !lo.isEmpty() && po.equals(lo) && limits ? 1 : 0;
        return full(cnt, predTotal, labelTotal);
    }

    @SuppressWarnings("unchecked")
    private static boolean iuenFull(Map<String, Object> pred, Map<String, Object> label) {
        int predTotal = 0;
        int labelTotal = 0;
        int cnt = 0;
        for (String op : SpiderSqlParse.SQL_OPS) {
            Object p = pred.get(op);
            Object l = label.get(op);
            predTotal += p != null ? 1 : 0;
            labelTotal += l != null ? 1 : 0;
            if (p != null && l != null && exactMatch((Map<String, Object>) p, (Map<String, Object>) l)) {
                cnt++;
            }
        }
        return full(cnt, predTotal, labelTotal);
    }

    @SuppressWarnings("unchecked")
    private static Set<Object> keywords(Map<String, Object> sql) {
        Set<Object> res = new HashSet<>();
        if (!list(sql, "where").isEmpty()) {
            res.add("where");
        }
        if (!list(sql, "groupBy").isEmpty()) {
            res.add("group");
        }
        if (!list(sql, "having").isEmpty()) {
            res.add("having");
        }
        if (!list(sql, "orderBy").isEmpty()) {
            res.add(list(sql, "orderBy").get(0));
            res.add("order");
        }
        if (sql.get("limit") != null) {
            res.add("limit");
        }
        for (String op : SpiderSqlParse.SQL_OPS) {
            if (sql.get(op) != null) {
                res.add(op);
            }
        }
        List<Object> fromConds = (List<Object>) ((Map<String, Object>) sql.get("from")).get("conds");
        List<Object> ao = new ArrayList<>(everyOther(fromConds, 1));
        ao.addAll(everyOther(list(sql, "where"), 1));
        ao.addAll(everyOther(list(sql, "having"), 1));
        if (ao.contains("or")) {
            res.add("or");
        }
        List<Object> units = new ArrayList<>(everyOther(fromConds, 0));
        units.addAll(everyOther(list(sql, "where"), 0));
        units.addAll(everyOther(list(sql, "having"), 0));
        if (units.stream().anyMatch(u -> Boolean.TRUE.equals(item(u, 0)))) {
            res.add("not");
        }
        if (units.stream().anyMatch(u -> Integer.valueOf(SpiderSqlParse.WHERE_OPS.indexOf("in")).equals(item(u, 1)))) {
            res.add("in");
        }
        if (units.stream().anyMatch(u -> Integer.valueOf(SpiderSqlParse.WHERE_OPS.indexOf("like")).equals(item(u, 1)))) {
            res.add("like");
        }
        return res;
    }
}

package io.flowsql.benchmarks.eval.mmsql;

import io.flowsql.sql.engine.sqlite.ReadOnlyConnections;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * {@code qm()} of {@code accs_eval.py}: the query match (Spider's exact-set match through {@code process_sql}) with the
 * script's text steps: the prediction loses {@code ```}, {@code ;}, backticks become single quotes and {@code ▁} a space;
 * the gold loses {@code ```} and its whitespace runs become one space; both get a space each side of their first
 * {@code =} and single quotes for double quotes. The schema is read as {@code get_schema} reads it (every table of
 * {@code sqlite_master}, lower case, with its columns); a database that is not here, or any step Python would raise on,
 * is a {@link SpiderSqlParse.ParseFailure}, which the script catches as a failed match.
 */
final class AccsQm {
    private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private final Path databaseRoot;
    private final Map<String, Object> schemas = new ConcurrentHashMap<>();

    AccsQm(Path databaseRoot) {
        this.databaseRoot = databaseRoot;
    }

    /** qm(db_path, p_str, g_str, db): true when the exact match holds; throws where the script's call raises. */
    boolean match(String db, String prediction, String gold) {
        if (prediction == null || gold == null) {
            throw new SpiderSqlParse.ParseFailure("AttributeError: 'NoneType' object has no attribute 'replace'");
        }
        String p = firstEquals(prediction.replace("```", "").replace(";", "").replace("`", "'").replace("\u2581", " "));
        String g = String.join(" ", WordTokens.pySplit(firstEquals(gold.replace("```", ""))));
        p = p.replace("\"", "'");
        g = g.replace("\"", "'");
        SpiderSqlParse.Schema schema = schema(db);
        Map<String, Object> goldSql = SpiderSqlParse.getSql(schema, g);
        Map<String, Object> predSql = SpiderSqlParse.getSql(schema, p);
        return SpiderExactMatch.exactMatch(predSql, goldSql);
    }

    private static String firstEquals(String s) {
        int eq = s.indexOf('=');
        return eq < 0 ? s : s.substring(0, eq) + " = " + s.substring(eq + 1);
    }

    /** parse_sql(): from the first SELECT (any case) to the next ';', newlines as spaces; empty without SELECT. */
    static String sqlOfReply(String text) {
        if (text == null) {
            throw new SpiderSqlParse.ParseFailure("AttributeError: 'NoneType' object has no attribute 'upper'");
        }
        int select = text.toUpperCase(Locale.ROOT).indexOf("SELECT");
        if (select < 0) {
            return "";
        }
        int semicolon = text.indexOf(';', select);
        return (semicolon < 0 ? text.substring(select) : text.substring(select, semicolon)).replace('\n', ' ');
    }

    private SpiderSqlParse.Schema schema(String db) {
        Object s = schemas.computeIfAbsent(db, this::load);
        if (s instanceof SpiderSqlParse.Schema schema) {
            return schema;
        }
        throw new SpiderSqlParse.ParseFailure((String) s);
    }

    /** The schema, or why get_schema fails (held as a String so each turn fails the same way). */
    private Object load(String db) {
        Path file = databaseRoot.resolve(db).resolve(db + ".sqlite");
        if (!Files.isRegularFile(file)) {
            return "no database " + db + " here: its schema is empty and every column lookup fails";
        }
        Map<String, List<String>> tables = new LinkedHashMap<>();
        try (Connection c = ReadOnlyConnections.open(file);
             Statement st = c.createStatement()) {
            List<String> names = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type='table'")) {
                while (rs.next()) {
                    names.add(rs.getString(1).toLowerCase(Locale.ROOT));
                }
            }
            for (String t : names) {
                if (!PLAIN_NAME.matcher(t).matches()) {
                    return "PRAGMA table_info(" + t + ") is not valid SQL";
                }
                List<String> cols = new ArrayList<>();
                try (ResultSet rs = st.executeQuery("PRAGMA table_info(" + t + ")")) {
                    while (rs.next()) {
                        cols.add(rs.getString(2).toLowerCase(Locale.ROOT));
                    }
                }
                tables.put(t, cols);
            }
        } catch (SQLException e) {
            return "get_schema(" + db + ") failed: " + e.getMessage();
        }
        return SpiderSqlParse.Schema.of(tables);
    }
}

package io.flowsql.sql.engine;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.arithmetic.Concat;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.util.deparser.ExpressionDeParser;
import net.sf.jsqlparser.util.deparser.SelectDeParser;
import net.sf.jsqlparser.util.deparser.StatementDeParser;

/**
 * SQLite's SQL (what the models and Spider's golds write) printed as MariaDB must read it to return SQLite's result,
 * under MariaDB's default {@code sql_mode} (no {@code ANSI_QUOTES}, no {@code PIPES_AS_CONCAT}) and the loader's
 * case-telling {@code utf8mb4_nopad_bin} collation:
 * <ul>
 *   <li>a double-quoted word that names a table or column of the schema is that name ({@code `x`}); SQLite reads it as
 *       the name, MariaDB as a string; one that names nothing stays a string, as both read it;</li>
 *   <li>{@code a || b} is {@code CONCAT(a, b)} (MariaDB's {@code ||} is OR);</li>
 *   <li>{@code LIKE} compares {@code LOWER} of both sides (SQLite's LIKE is case-blind);</li>
 *   <li>{@code CAST(x AS REAL)} is {@code AS DOUBLE}, {@code AS TEXT} {@code AS CHAR}, {@code AS INTEGER} truncates
 *       first ({@code CAST(TRUNCATE(x, 0) AS SIGNED)}: MariaDB rounds 3.7 to 4, SQLite truncates to 3);</li>
 *   <li>{@code iif} is {@code IF}; {@code length} {@code CHAR_LENGTH} (MariaDB's counts bytes); two-argument
 *       {@code max}/{@code min} {@code GREATEST}/{@code LEAST}; {@code group_concat(x, s)}
 *       {@code GROUP_CONCAT(x SEPARATOR s)} (MariaDB would concatenate {@code s} to each value);
 *       {@code strftime} with a constant format of {@code %Y %m %d %H %M %S %j %w} {@code DATE_FORMAT} ({@code %M}, the
 *       minute, is MariaDB's {@code %i}); {@code julianday(x)} {@code TO_SECONDS(x) / 86400e0 + 1721059.5};</li>
 *   <li>a subquery in FROM gets the alias MariaDB requires ({@code derived_1}); a table or column of the schema named by
 *       a word MariaDB reserves and SQLite does not ({@code FROM show}) is backticked; {@code COUNT (*)}, a space before a
 *       call's parenthesis, which MariaDB does not read as a call, is printed {@code COUNT(*)}.</li>
 * </ul>
 * {@code LIMIT a, b}, {@code substr}, {@code ifnull}, {@code instr} and boolean literals read alike and are left alone.
 */
final class MariaDbAlignment {
    /** SQLite's strftime codes DATE_FORMAT has, by their DATE_FORMAT code; any other code leaves the call alone. */
    private static final Map<String, String> DATE_CODES = Map.of("%Y", "%Y", "%m", "%m", "%d", "%d", "%H", "%H",
            "%M", "%i", "%S", "%S", "%j", "%j", "%w", "%w", "%%", "%%");
    private static final Pattern CODE = Pattern.compile("%.");
    /** SQLite's Julian day of MariaDB's day 0 (TO_SECONDS counts from year 0). */
    private static final String JULIAN_DAY_ZERO = "1721059.5";
    /** Words MariaDB reserves (its "Reserved Words" list) that SQLite takes as plain names. */
    private static final Set<String> RESERVED = Set.of(("accessible add all alter analyze and as asc asensitive before between"
            + " bigint binary blob both by call cascade case change char character check collate column condition constraint"
            + " continue convert create cross current_date current_role current_time current_timestamp current_user cursor"
            + " database databases day_hour day_microsecond day_minute day_second dec decimal declare default delayed delete"
            + " desc describe deterministic distinct distinctrow div double drop dual each else elseif enclosed escaped except"
            + " exists exit explain false fetch float float4 float8 for force foreign from fulltext general grant group having"
            + " high_priority hour_microsecond hour_minute hour_second if ignore in index infile inner inout insensitive insert"
            + " int int1 int2 int3 int4 int8 integer intersect interval into is iterate join key keys kill leading leave left"
            + " like limit linear lines load localtime localtimestamp lock long longblob longtext loop low_priority match"
            + " maxvalue mediumblob mediumint mediumtext middleint minute_microsecond minute_second mod modifies natural not"
            + " no_write_to_binlog null numeric offset on optimize option optionally or order out outer outfile over"
            + " partition position precision primary procedure purge range read reads read_write real recursive references"
            + " regexp release rename repeat replace require resignal restrict return returning revoke right rlike rows"
            + " row_number schema schemas second_microsecond select sensitive separator set show signal slow smallint spatial"
            + " specific sql sqlexception sqlstate sqlwarning sql_big_result sql_calc_found_rows sql_small_result ssl starting"
            + " straight_join table terminated then tinyblob tinyint tinytext to trailing trigger true undo union unique"
            + " unlock unsigned update usage use using utc_date utc_time utc_timestamp values varbinary varchar varcharacter"
            + " varying when where while window with write xor year_month zerofill").split(" "));
    /** A word and white space before an opening parenthesis: a call MariaDB reads only without the space. */
    private static final Pattern SPACED_CALL = Pattern.compile("\\b([A-Za-z_][A-Za-z0-9_]*)\\s+\\(");

    private MariaDbAlignment() {}

    /** {@code sql}, parsed as {@code statement}, printed with MariaDB's forms, or empty when it needs none. */
    static Optional<String> align(String sql, Statement statement, Set<String> names) {
        StringBuilder out = new StringBuilder();
        Printer expressions = new Printer(names);
        expressions.setBuilder(out);
        Tables select = new Tables(expressions, out, names);
        expressions.setSelectVisitor(select);
        statement.accept(new StatementDeParser(expressions, select, out));
        return expressions.changed || select.changed || spacedCall(sql, expressions.called)
                ? Optional.of(out.toString()) : Optional.empty();
    }

    /** True when one of the statement's calls is written with a space before its parenthesis ({@code COUNT (*)}). */
    private static boolean spacedCall(String sql, Set<String> called) {
        Matcher m = SPACED_CALL.matcher(sql);
        while (m.find()) {
            if (called.contains(m.group(1).toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }

    /** A name of the schema ({@code names}) that MariaDB reserves in backticks, else as it is. */
    private static String unreserved(String name, Set<String> names) {
        String lower = name == null ? null : name.toLowerCase(Locale.ROOT);
        return lower != null && RESERVED.contains(lower) && names.contains(lower) ? "`" + name + "`" : name;
    }

    /** A double-quoted name in backticks, as MariaDB quotes names. */
    private static String backticked(String doubleQuoted) {
        String name = doubleQuoted.substring(1, doubleQuoted.length() - 1).replace("\"\"", "\"");
        return "`" + name.replace("`", "``") + "`";
    }

    private static boolean doubleQuoted(String name) {
        return name != null && name.length() > 1 && name.startsWith("\"") && name.endsWith("\"");
    }

    /**
     * Table names in double quotes ({@code FROM "singer"}) or reserved by MariaDB in backticks, and an alias for each
     * subquery in FROM.
     */
    private static final class Tables extends SelectDeParser {
        private final Set<String> names;
        private boolean changed;
        private int derived;

        Tables(Printer expressions, StringBuilder out, Set<String> names) {
            super(expressions, out);
            this.names = names;
        }

        @Override
        public <S> StringBuilder visit(Table table, S context) {
            if (doubleQuoted(table.getName())) {
                table.setName(backticked(table.getName()));
                changed = true;
            } else if (!unreserved(table.getName(), names).equals(table.getName())) {
                table.setName(unreserved(table.getName(), names));
                changed = true;
            }
            return super.visit(table, context);
        }

        @Override
        public <S> StringBuilder visit(net.sf.jsqlparser.statement.select.PlainSelect select, S context) {
            select.setFromItem(aliased(select.getFromItem()));
            if (select.getJoins() != null) {
                select.getJoins().forEach(j -> j.setRightItem(aliased(j.getRightItem())));
            }
            return super.visit(select, context);
        }

        private net.sf.jsqlparser.statement.select.FromItem aliased(net.sf.jsqlparser.statement.select.FromItem item) {
            if (item instanceof net.sf.jsqlparser.statement.select.ParenthesedSelect sub && sub.getAlias() == null) {
                sub.setAlias(new net.sf.jsqlparser.expression.Alias("derived_" + ++derived));
                changed = true;
            }
            return item;
        }
    }

    /** Prints each expression, in MariaDB's form where SQLite's reads otherwise there. */
    private static final class Printer extends ExpressionDeParser {
        private final Set<String> names;
        /** The names of the functions the statement calls, lower-cased. */
        private final Set<String> called = new java.util.HashSet<>();
        private boolean changed;

        Printer(Set<String> names) {
            this.names = names;
        }

        @Override
        public <S> StringBuilder visit(StringValue value, S context) {
            if ("\"".equals(value.getQuoteStr()) && value.getPrefix() == null
                    && names.contains(value.getValue().replace("\"\"", "\"").toLowerCase(Locale.ROOT))) {
                changed = true;
                return builder.append(backticked("\"" + value.getValue() + "\""));
            }
            return super.visit(value, context);
        }

        @Override
        public <S> StringBuilder visit(Column column, S context) {
            if (doubleQuoted(column.getColumnName())) {
                column.setColumnName(backticked(column.getColumnName()));
                changed = true;
            } else if (!unreserved(column.getColumnName(), names).equals(column.getColumnName())) {
                column.setColumnName(unreserved(column.getColumnName(), names));
                changed = true;
            }
            return super.visit(column, context);
        }

        @Override
        public <S> StringBuilder visit(Concat concat, S context) {
            changed = true;
            return call("CONCAT", List.of(concat.getLeftExpression(), concat.getRightExpression()), context);
        }

        @Override
        public <S> StringBuilder visit(LikeExpression like, S context) {
            if (like.getLikeKeyWord() != LikeExpression.KeyWord.LIKE) {
                return super.visit(like, context);
            }
            changed = true;
            call("LOWER", List.of(like.getLeftExpression()), context);
            builder.append(like.isNot() ? " NOT LIKE " : " LIKE ");
            call("LOWER", List.of(like.getRightExpression()), context);
            if (like.getEscape() != null) {
                builder.append(" ESCAPE ");
                like.getEscape().accept(this, context);
            }
            return builder;
        }

        @Override
        public <S> StringBuilder visit(CastExpression cast, S context) {
            String type = cast.isUseCastKeyword() && cast.getColDataType().getArgumentsStringList() == null
                    ? cast.getColDataType().getDataType().toUpperCase(Locale.ROOT) : "";
            switch (type) {
                case "REAL", "FLOAT", "DOUBLE" -> cast(cast.getLeftExpression(), "DOUBLE", context);
                case "TEXT", "VARCHAR", "CHAR" -> cast(cast.getLeftExpression(), "CHAR", context);
                case "INTEGER", "INT", "BIGINT" -> {
                    builder.append("CAST(TRUNCATE(");
                    cast.getLeftExpression().accept(this, context);
                    builder.append(", 0) AS SIGNED)");
                }
                default -> {
                    return super.visit(cast, context);
                }
            }
            changed = true;
            return builder;
        }

        @Override
        public <S> StringBuilder visit(Function function, S context) {
            List<Expression> args = arguments(function);
            String name = function.getName() == null ? "" : function.getName().toLowerCase(Locale.ROOT);
            called.add(name);
            boolean plain = args != null && !function.isDistinct() && function.getOrderByElements() == null;
            if (!plain) {
                return super.visit(function, context);
            }
            String dateFormat = name.equals("strftime") && args.size() == 2 ? dateFormat(args.get(0)) : null;
            if (name.equals("iif") && args.size() == 3) {
                changed = true;
                return call("IF", args, context);
            }
            if (name.equals("length") && args.size() == 1) {
                changed = true;
                return call("CHAR_LENGTH", args, context);
            }
            if ((name.equals("max") || name.equals("min")) && args.size() >= 2) {
                changed = true;
                return call(name.equals("max") ? "GREATEST" : "LEAST", args, context);
            }
            if (name.equals("group_concat") && args.size() == 2) {
                changed = true;
                builder.append("GROUP_CONCAT(");
                args.get(0).accept(this, context);
                builder.append(" SEPARATOR ");
                args.get(1).accept(this, context);
                return builder.append(')');
            }
            if (dateFormat != null) {
                changed = true;
                builder.append("DATE_FORMAT(");
                args.get(1).accept(this, context);
                return builder.append(", '").append(dateFormat).append("')");
            }
            if (name.equals("julianday") && args.size() == 1 && !(args.get(0) instanceof StringValue s
                    && s.getValue().equalsIgnoreCase("now"))) {
                changed = true;
                builder.append('(');
                call("TO_SECONDS", args, context);
                return builder.append(" / 86400e0 + ").append(JULIAN_DAY_ZERO).append(')');
            }
            return super.visit(function, context);
        }

        /** The arguments of a plain call {@code f(a, b)}, or null (no arguments, {@code f(*)}, named arguments). */
        @SuppressWarnings("unchecked")
        private static List<Expression> arguments(Function function) {
            if (function.getParameters() == null || function.isAllColumns() || function.getNamedParameters() != null) {
                return null;
            }
            return (List<Expression>) (List<?>) function.getParameters();
        }

        /** MariaDB's DATE_FORMAT format for a constant strftime format holding only codes it has, else null. */
        private static String dateFormat(Expression format) {
            if (!(format instanceof StringValue s) || s.getValue().contains("'") || s.getValue().contains("\\")) {
                return null;
            }
            Matcher m = CODE.matcher(s.getValue());
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                String code = DATE_CODES.get(m.group());
                if (code == null) {
                    return null;
                }
                m.appendReplacement(out, Matcher.quoteReplacement(code));
            }
            m.appendTail(out);
            return s.getValue().indexOf('%') < 0 ? null : out.toString();
        }

        private <S> void cast(Expression value, String type, S context) {
            builder.append("CAST(");
            value.accept(this, context);
            builder.append(" AS ").append(type).append(')');
        }

        private <S> StringBuilder call(String function, List<Expression> args, S context) {
            builder.append(function).append('(');
            for (int i = 0; i < args.size(); i++) {
                if (i > 0) {
                    builder.append(", ");
                }
                args.get(i).accept(this, context);
            }
            return builder.append(')');
        }
    }
}

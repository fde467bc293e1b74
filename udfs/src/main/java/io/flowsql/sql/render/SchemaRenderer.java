package io.flowsql.sql.render;

import io.flowsql.sql.BriefTables;
import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.ForeignKey;
import io.flowsql.sql.TableSchema;
import io.flowsql.sql.exec.SafeExecutor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Turns a schema into the texts the agents' prompts carry: the full schema, MAG-SQL's soft schema,
 * a pruned schema, and DDL with sample rows; the format is described in docs/DATABASE.md.
 */
public final class SchemaRenderer {

    private final TokenCounter tokens;
    private final SafeExecutor executor;

    /** @param executor runs the sample-row queries of {@link #ddlWithRows} (through the safe path like any SQL) */
    public SchemaRenderer(TokenCounter tokens, SafeExecutor executor) {
        this.tokens = tokens;
        this.executor = executor;
    }

    /** Every table and column with its description and value examples. */
    public RenderedSchema full(DatabaseSchema schema) {
        return render(schema, schema.tables(), c -> true, c -> true);
    }

    /** Every table and column, but descriptions and value examples only for the linked columns. */
    public RenderedSchema soft(DatabaseSchema schema, Collection<ColumnRef> linked) {
        Set<String> keys = keys(linked);
        return render(schema, schema.tables(), c -> true, c -> keys.contains(key(c.ref())));
    }

    /** Only linked tables and columns, plus the tables and key columns needed to join them. */
    public RenderedSchema pruned(DatabaseSchema schema, Collection<ColumnRef> linked) {
        List<TableSchema> tables = JoinPaths.tablesConnecting(schema, linked);
        Set<String> names = tables.stream().map(t -> t.name().toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        Set<String> keep = keys(linked);
        for (ForeignKey fk : schema.foreignKeys()) {
            if (names.contains(fk.from().table().toLowerCase(Locale.ROOT)) && names.contains(fk.to().table().toLowerCase(Locale.ROOT))) {
                keep.add(key(fk.from()));
                keep.add(key(fk.to()));
            }
        }
        return render(schema, tables, c -> c.primaryKey() || keep.contains(key(c.ref())), c -> true);
    }

    /** CREATE TABLE statements, each followed by its first {@code rows} rows. */
    public RenderedSchema ddlWithRows(DatabaseSchema schema, int rows) {
        StringBuilder out = new StringBuilder();
        for (TableSchema table : schema.tables()) {
            out.append("CREATE TABLE ").append(quote(table.name())).append(" (\n");
            List<String> lines = new ArrayList<>();
            for (ColumnSchema c : table.columns()) {
                lines.add("  " + quote(c.name()) + (c.type().isEmpty() ? "" : " " + c.type()) + (c.nullable() || c.primaryKey() ? "" : " NOT NULL"));
            }
            if (!table.primaryKey().isEmpty()) {
                lines.add("  PRIMARY KEY (" + table.primaryKey().stream().map(SchemaRenderer::quote).collect(Collectors.joining(", ")) + ")");
            }
            for (ForeignKey fk : schema.foreignKeys()) {
                if (fk.from().table().equalsIgnoreCase(table.name())) {
                    lines.add("  FOREIGN KEY (" + quote(fk.from().column()) + ") REFERENCES " + quote(fk.to().table())
                            + " (" + quote(fk.to().column()) + ")");
                }
            }
            out.append(String.join(",\n", lines)).append("\n);\n");
            if (rows > 0) {
                appendRows(out, schema.dbId(), table, rows);
            }
        }
        return tokens.measure(out.toString());
    }

    private void appendRows(StringBuilder out, String dbId, TableSchema table, int rows) {
        String sql = "SELECT * FROM " + quote(table.name()) + " LIMIT " + rows;
        ExecutionResult result = executor.execute(dbId, sql);
        out.append("/*\n").append(rows).append(" example rows:\n").append(sql).append(";\n");
        if (result.ok()) {
            out.append(String.join("\t", result.columns())).append('\n');
            for (List<Object> row : result.rows()) {
                out.append(row.stream().map(v -> v == null ? "NULL" : clip(String.valueOf(v))).collect(Collectors.joining("\t"))).append('\n');
            }
        } else {
            out.append("(rows unavailable: ").append(result.error().message()).append(")\n");
        }
        out.append("*/\n");
    }

    private RenderedSchema render(DatabaseSchema schema, List<TableSchema> tables,
            java.util.function.Predicate<ColumnSchema> shown, java.util.function.Predicate<ColumnSchema> detailed) {
        StringBuilder out = new StringBuilder();
        Set<String> names = tables.stream().map(t -> t.name().toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        for (TableSchema table : tables) {
            if (BriefTables.isBrief(table)) {  // a retrieval's less likely table: one line
                out.append("# Table: ").append(table.name()).append(" [").append(table.columns().stream().filter(shown)
                        .map(c -> c.primaryKey() ? c.name() + " (primary key)" : c.name()).collect(Collectors.joining(", ")))
                        .append("]\n");
                continue;
            }
            out.append("# Table: ").append(table.name());
            if (!table.description().isEmpty()) {
                out.append(" (").append(table.description()).append(')');
            }
            out.append("\n[\n");
            for (ColumnSchema c : table.columns()) {
                if (shown.test(c)) {
                    out.append("  ").append(columnLine(c, detailed.test(c))).append(",\n");
                }
            }
            out.append("]\n");
        }
        List<String> joins = schema.foreignKeys().stream()
                .filter(fk -> names.contains(fk.from().table().toLowerCase(Locale.ROOT)) && names.contains(fk.to().table().toLowerCase(Locale.ROOT)))
                .map(SchemaRenderer::foreignKeyLine).toList();
        if (!joins.isEmpty()) {
            out.append(FOREIGN_KEYS_HEADER);
            joins.forEach(out::append);
        }
        return tokens.measure(out.toString());
    }

    /** The line that heads a rendering's foreign keys (after the tables). */
    public static final String FOREIGN_KEYS_HEADER = "# Foreign keys:\n";

    /** One foreign key as a full rendering lists it, newline included (a retrieval sums these lines' tokens). */
    public static String foreignKeyLine(ForeignKey fk) {
        return fk.from() + " = " + fk.to() + "\n";
    }

    private static String columnLine(ColumnSchema c, boolean detailed) {
        StringBuilder line = new StringBuilder("(").append(c.name()).append(", ").append(c.type().isEmpty() ? "ANY" : c.type().toUpperCase(Locale.ROOT));
        if (c.primaryKey()) {
            line.append(", primary key");
        }
        if (detailed) {
            if (!c.description().isEmpty()) {
                line.append(", \"").append(c.description().replace("\"", "'")).append('"');
            }
            if (!c.valueExamples().isEmpty()) {
                line.append(", examples: [").append(c.valueExamples().stream().map(v -> "'" + clip(v).replace("'", "''") + "'")
                        .collect(Collectors.joining(", "))).append(']');
            }
            if (c.nullable() && !c.primaryKey()) {
                line.append(", nullable");
            }
        }
        return line.append(')').toString();
    }

    private static String clip(String value) {
        return value.length() <= 60 ? value : value.substring(0, 57) + "...";
    }

    private static Set<String> keys(Collection<ColumnRef> refs) {
        Set<String> keys = new LinkedHashSet<>();
        refs.forEach(r -> keys.add(key(r)));
        return keys;
    }

    private static String key(ColumnRef ref) {
        return ref.toString().toLowerCase(Locale.ROOT);
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}

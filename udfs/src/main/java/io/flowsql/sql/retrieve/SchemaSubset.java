package io.flowsql.sql.retrieve;

import io.flowsql.sql.BriefTables;
import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ForeignKey;
import io.flowsql.sql.TableSchema;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/** A schema cut down to some of its tables: their columns as they are, and only the foreign keys among them. */
public final class SchemaSubset {
    private SchemaSubset() {}

    /** The tables {@code keep} accepts, in the schema's order; the schema itself when it accepts all. */
    public static DatabaseSchema of(DatabaseSchema schema, Predicate<TableSchema> keep) {
        List<TableSchema> tables = schema.tables().stream().filter(keep).toList();
        if (tables.size() == schema.tables().size()) {
            return schema;
        }
        Set<String> names = tables.stream().map(t -> t.name().toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        List<ForeignKey> keys = schema.foreignKeys().stream()
                .filter(fk -> names.contains(fk.from().table().toLowerCase(Locale.ROOT))
                        && names.contains(fk.to().table().toLowerCase(Locale.ROOT)))
                .toList();
        return new DatabaseSchema(schema.dbId(), tables, keys);
    }

    /** The named tables (any case). */
    public static DatabaseSchema named(DatabaseSchema schema, Collection<String> tableNames) {
        return named(schema, tableNames, List.of());
    }

    /** The named tables (any case), those also in {@code briefNames} reduced to {@link #brief} form. */
    public static DatabaseSchema named(DatabaseSchema schema, Collection<String> tableNames, Collection<String> briefNames) {
        Set<String> names = lower(tableNames);
        DatabaseSchema kept = of(schema, t -> names.contains(t.name().toLowerCase(Locale.ROOT)));
        if (briefNames.isEmpty()) {
            return kept;
        }
        Set<String> brief = lower(briefNames);
        return new DatabaseSchema(kept.dbId(), kept.tables().stream()
                .map(t -> brief.contains(t.name().toLowerCase(Locale.ROOT)) ? brief(t) : t).toList(), kept.foreignKeys());
    }

    /**
     * A table as a retrieval shows its less likely tables: column names and keys on one line ({@link BriefTables}),
     * no types, descriptions or examples.
     */
    public static TableSchema brief(TableSchema table) {
        return BriefTables.mark(new TableSchema(table.name(), "", table.columns().stream().map(c -> new ColumnSchema(c.table(), c.name(),
                c.type(), "", false, c.primaryKey(), List.of())).toList(), table.primaryKey()));
    }

    private static Set<String> lower(Collection<String> names) {
        return names.stream().map(n -> n.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
    }
}

package io.flowsql.agents.common;

import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.DatabaseSchema;
import java.util.List;

/** The two ways agents show a schema to the model: whole, or MAG-SQL's soft schema centred on the linked columns. */
public interface SchemaViews {

    /** Every table and column. */
    String full(DatabaseSchema schema);

    /** The linked columns in full (with value examples), the rest of the schema only by name. */
    String soft(DatabaseSchema schema, List<ColumnRef> linkedColumns);
}

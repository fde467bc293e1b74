package io.flowsql.agents.magsql;

import io.flowsql.sql.ColumnRef;
import java.util.List;

/** One entity of the question with the schema columns that may represent it, best first (MAG-SQL §3.1). */
public record EntityLink(String entity, List<ColumnRef> columns) {
    public EntityLink {
        columns = List.copyOf(columns);
    }
}

package io.flowsql.agents.opensearch.align;

import io.flowsql.pipeline.Cancellation;
import io.flowsql.sql.DatabaseSchema;
import java.util.Optional;

/** One of OpenSearch-SQL §3.4's consistency alignments, switchable on its own; a rule that does not apply leaves the SQL alone. */
public interface AlignmentRule {

    /** A short stable name for traces and notes, e.g. "value". */
    String name();

    /** The rewritten SQL, or empty when the rule does not apply (or the SQL cannot be analysed). */
    Optional<String> apply(String sql, DatabaseSchema schema);

    /**
     * As {@link #apply(String, DatabaseSchema)} within a stage whose {@code cancellation} (when not null) stops the
     * SQL the rule runs; a rule that runs none ignores it. A cancelled rule leaves the SQL alone.
     */
    default Optional<String> apply(String sql, DatabaseSchema schema, Cancellation cancellation) {
        return apply(sql, schema);
    }
}

package io.flowsql.agents.opensearch.align;

import io.flowsql.pipeline.StageSql;
import io.flowsql.sql.DatabaseSchema;
import java.util.Optional;

/** One of OpenSearch-SQL §3.4's consistency alignments, switchable on its own; a rule that does not apply leaves the SQL alone. */
public interface AlignmentRule {

    /** A short stable name for traces and notes, e.g. "value". */
    String name();

    /** The rewritten SQL, or empty when the rule does not apply (or the SQL cannot be analysed). */
    Optional<String> apply(String sql, DatabaseSchema schema);

    /**
     * As {@link #apply(String, DatabaseSchema)} for one question: the SQL the rule runs runs for {@code scope} (the
     * question's tenant and the stage's cancellation; null: no tenant, no cancellation), under its access policy
     * ({@link StageSql}); a rule that runs none ignores it. A cancelled rule leaves the SQL alone.
     */
    default Optional<String> apply(String sql, DatabaseSchema schema, StageSql.Scope scope) {
        return apply(sql, schema);
    }
}

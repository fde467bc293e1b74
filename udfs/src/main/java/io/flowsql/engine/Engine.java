package io.flowsql.engine;

import io.flowsql.llm.LlmClient;
import io.flowsql.sql.SchemaCatalog;
import io.flowsql.sql.SqlExecutor;
import io.flowsql.sql.ValueIndexProvider;

/**
 * The shared components every agent and stage is built from: the LLM client, the safe executor, the
 * schema catalog and the value indexes. One per JVM in the Flink job (see EngineFactory), one per
 * test in unit tests; agents receive the parts they need through their constructors.
 */
public record Engine(LlmClient llm, SqlExecutor sql, SchemaCatalog catalog, ValueIndexProvider values)
        implements AutoCloseable {

    /** Closes the LLM client and the executor's connections; the executor is closed even when the client fails to. */
    @Override
    public void close() {
        try {
            llm.close();
        } finally {
            sql.close();
        }
    }
}

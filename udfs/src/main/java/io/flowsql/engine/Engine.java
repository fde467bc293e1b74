package io.flowsql.engine;

import io.flowsql.access.AccessPolicies;
import io.flowsql.access.DataDoors;
import io.flowsql.llm.LlmClient;
import io.flowsql.sql.catalog.SchemaCatalog;
import io.flowsql.sql.exec.SafeExecutor;
import io.flowsql.sql.index.CachingValueIndexProvider;

/**
 * The shared components every agent and stage is built from: the LLM client, the safe executor, the
 * schema catalog and the value indexes. One per JVM in the Flink job (see EngineFactory), one per
 * test in unit tests; agents receive the parts they need through their constructors.
 */
public record Engine(LlmClient llm, SafeExecutor sql, SchemaCatalog catalog, CachingValueIndexProvider values)
        implements AutoCloseable {

    /** The room of this engine's data (executor, catalog, value indexes) under {@code access}: stages reach data through its doors. */
    public DataDoors room(AccessPolicies access) {
        return new DataDoors(sql, catalog, values, access);
    }

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

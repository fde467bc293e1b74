package io.flowsql.job.kafka;

import io.flowsql.sql.catalog.DatabaseLocator;

import java.io.Serializable;

/** Tells whether a question's db_id names a database the job can open, so a wrong id is a dead letter, not a failed answer. */
@FunctionalInterface
public interface KnownDatabases extends Serializable {

    boolean contains(String dbId);

    static KnownDatabases of(DatabaseLocator locator) {
        return dbId -> locator.sqliteFile(dbId).isPresent();
    }
}

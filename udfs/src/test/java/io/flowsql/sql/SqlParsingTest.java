package io.flowsql.sql;

import io.flowsql.sql.engine.SqlParsing;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import net.sf.jsqlparser.statement.select.Select;
import org.junit.jupiter.api.Test;

/** Parsing reuses a few pooled threads instead of starting one per statement, and still reads SQLite's quoting. */
class SqlParsingTest {

    @Test
    void parsesOnPooledThreadsNotOneThreadPerStatement() {
        long startedBefore = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount();
        for (int i = 0; i < 200; i++) {
            assertThat(SqlParsing.parse("SELECT [Name] FROM singer WHERE Age > " + i)).get().isInstanceOf(Select.class);
        }
        long started = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount() - startedBefore;
        assertThat(started).as("threads started for 200 parses").isLessThan(20);
        assertThat(SqlParsing.parse("SELEC nonsense FROM")).isEmpty();
    }
}

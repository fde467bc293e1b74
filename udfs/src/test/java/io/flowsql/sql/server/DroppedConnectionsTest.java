package io.flowsql.sql.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.exec.JdbcSafeExecutor;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.registry.Credentials;
import io.flowsql.sql.registry.JdbcPools;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A pooled PostgreSQL connection the server dropped (a restart, a failover, {@code pg_terminate_backend}) is not the
 * SQL's fault: the next statement on it runs again on a fresh connection and answers, instead of failing as invalid SQL
 * (the session set-up on the dead connection used to fail first, and was classified as a bad statement).
 */
class DroppedConnectionsTest {

    @Test
    void aStatementOnADroppedPooledConnectionRunsAgainOnAFreshOne() throws Exception {
        ServerDatabases servers = ServerDatabases.get();
        try (JdbcSafeExecutor jdbc = new JdbcSafeExecutor(servers.registry(), SqlExecutorConfig.defaults().withTimeoutMillis(5_000),
                new JdbcPools(new Credentials(Map.of()), 3_000));
                Connection admin = servers.admin()) {
            ExecutionResult before = jdbc.execute("pg_concert_singer", "SELECT count(*) FROM singer");
            assertThat(before.error()).isNull();
            int dropped = dropReaderConnections(admin);
            assertThat(dropped).as("the pool kept its connection, which the server now dropped").isPositive();
            // at once (within Hikari's 500 ms in which a connection just returned is lent without a check)
            ExecutionResult after = jdbc.execute("pg_concert_singer", "SELECT count(*) FROM singer");
            assertThat(after.error()).as("the statement ran again on a fresh connection").isNull();
            assertThat(after.rows()).isEqualTo(before.rows());
        }
    }

    /** Terminates the reader's idle connections and waits until each backend has ended; returns how many. */
    private static int dropReaderConnections(Connection admin) throws Exception {
        try (Statement s = admin.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, 5000)) FROM pg_stat_activity "
                        + "WHERE usename = '" + ServerDatabases.READER + "' AND state = 'idle'")) {
            r.next();
            return r.getInt(1);
        }
    }
}

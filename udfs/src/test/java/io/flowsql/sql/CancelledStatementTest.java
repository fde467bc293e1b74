package io.flowsql.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.pipeline.Cancellation;
import io.flowsql.pipeline.StageSql;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A caller's timeout stops the running SQLite statement, not only its own wait: on a real Spider database, a query
 * that would run until the executor's 60 s limit is cancelled after ~200 ms, the way each caller cancels (a stage's
 * {@link Cancellation} through {@link StageSql}; the candidate pool's {@code Future.cancel(true)}); the statement
 * ends with a "cancelled" error long before the limit, and the database's only connection is free again.
 */
class CancelledStatementTest {
    private static final String DB = "flight_4";
    /** Counts forever: only a time limit or a cancel ends it. */
    private static final String ENDLESS = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n";
    private static final long QUERY_TIMEOUT_MS = 60_000;
    /** Far below the query timeout, far above a cancel's latency even on a loaded machine. */
    private static final long WELL_BEFORE_THE_TIMEOUT_S = 20;

    private SqliteSafeExecutor executor;
    private ExecutorService callers;

    @BeforeEach
    void open() {
        // one connection: a statement left running would keep every later one waiting
        executor = new SqliteSafeExecutor(SpiderData.locator(),
                SqlExecutorConfig.defaults().withTimeoutMillis(QUERY_TIMEOUT_MS).withPoolSizePerDatabase(1));
        callers = Executors.newFixedThreadPool(2);
        // warm up (the guard's parser, the connection) so that 200 ms later the statement is really running
        // (a budget a cold parse fits in even on a loaded machine: 300 ms was not always)
        assertThat(executor.execute(DB, ENDLESS, StatementBudget.startingNow(1_500)).error().message()).contains("time limit");
    }

    @AfterEach
    void close() {
        callers.shutdownNow();
        executor.close();
    }

    @Test
    void aStageCancellationStopsTheRunningStatementAndFreesItsConnection() throws Exception {
        StageTrace trace = new StageTrace("sqlfix.review");
        trace.cancellation = new Cancellation();
        CompletableFuture<ExecutionResult> running = CompletableFuture.supplyAsync(
                () -> StageSql.open(executor).execute(StageSql.Scope.of(DB, null, trace), ENDLESS), callers);
        Thread.sleep(200);
        assertThat(running).as("the statement is still running when the stage times out").isNotDone();
        trace.cancellation.cancel();

        assertCancelled(running.get(WELL_BEFORE_THE_TIMEOUT_S, TimeUnit.SECONDS));
        assertTheConnectionIsFree();
    }

    @Test
    void interruptingTheCandidateRunStopsTheRunningStatementAndFreesItsConnection() throws Exception {
        CompletableFuture<ExecutionResult> outcome = new CompletableFuture<>();
        Future<?> run = callers.submit(() -> outcome.complete(executor.execute(DB, ENDLESS)));
        Thread.sleep(200);
        assertThat(outcome).as("the statement is still running when Flink's timeout fires").isNotDone();
        run.cancel(true);   // what CandidateExecuteFunction.timeout does

        assertCancelled(outcome.get(WELL_BEFORE_THE_TIMEOUT_S, TimeUnit.SECONDS));
        assertTheConnectionIsFree();
    }

    @Test
    void aCancelWhileWaitingForAConnectionEndsTheWaitAndLeavesNoInterruptBehind() throws Exception {
        StatementBudget holder = executor.newBudget();
        CompletableFuture<ExecutionResult> holding = CompletableFuture.supplyAsync(
                () -> executor.execute(DB, ENDLESS, holder), callers);
        Thread.sleep(200);
        StatementBudget waiter = executor.newBudget();
        CompletableFuture<Boolean> interruptLeft = new CompletableFuture<>();
        CompletableFuture<ExecutionResult> waiting = CompletableFuture.supplyAsync(() -> {
            ExecutionResult result = executor.execute(DB, "SELECT count(*) FROM airlines", waiter);
            interruptLeft.complete(Thread.currentThread().isInterrupted());
            return result;
        }, callers);
        Thread.sleep(200);
        assertThat(waiting).as("the only connection is taken: the second statement waits").isNotDone();
        waiter.cancel();

        assertCancelled(waiting.get(WELL_BEFORE_THE_TIMEOUT_S, TimeUnit.SECONDS));
        assertThat(interruptLeft.get()).as("the pool thread keeps no interrupt for its next task").isFalse();
        assertThat(holding).as("the other statement still runs").isNotDone();
        holder.cancel();
        assertCancelled(holding.get(WELL_BEFORE_THE_TIMEOUT_S, TimeUnit.SECONDS));
        assertTheConnectionIsFree();
    }

    private static void assertCancelled(ExecutionResult result) {
        assertThat(result.ok()).isFalse();
        assertThat(result.error().kind()).isEqualTo(SqlError.Kind.TIMEOUT);
        assertThat(result.error().message()).startsWith("cancelled");
    }

    /** With one connection per database, a next statement runs only if the cancelled one gave the connection back. */
    private void assertTheConnectionIsFree() throws Exception {
        ExecutionResult next = CompletableFuture.supplyAsync(() -> executor.execute(DB, "SELECT count(*) FROM routes"), callers)
                .get(WELL_BEFORE_THE_TIMEOUT_S, TimeUnit.SECONDS);
        assertThat(next.ok()).as(String.valueOf(next.error())).isTrue();
        assertThat(next.rows().get(0).get(0)).isEqualTo(67240L);
    }
}

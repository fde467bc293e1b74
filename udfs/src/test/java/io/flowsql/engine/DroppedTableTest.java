package io.flowsql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.agents.common.AgentSettings;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.AnswerMapper;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.FailureKind;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import io.flowsql.simulator.oracle.SqlErrorInjector;
import io.flowsql.sql.SpiderData;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.catalog.SqliteSchemaCatalog;
import io.flowsql.sql.catalog.ValueExamplePolicy;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import io.flowsql.sql.index.CachingValueIndexProvider;
import io.flowsql.sql.index.LcsValueScorer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A table dropped while the job runs (the catalog still lists it): every candidate fails in the real SQLite
 * database with "no such table", so the answer is {@code failed} with {@code error_kind sql_error} and the last
 * candidate's error, not {@code answered} with SQL that does not run.
 */
class DroppedTableTest {
    private static final String DB = "concert_singer";

    @TempDir
    Path root;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"mag-sql", "sqlfix", "opensearch"})
    void everyCandidateFailingOnADroppedTableFailsTheAnswer(String preset) throws Exception {
        Path sharedDb = SpiderData.sharedData().resolve("spider/database").resolve(DB).resolve(DB + ".sqlite");
        Files.createDirectories(root.resolve(DB));
        Files.copy(sharedDb, root.resolve(DB).resolve(DB + ".sqlite"));
        DatabaseLocator locator = new DatabaseLocator(List.of(root), List.of());
        SqliteSchemaCatalog catalog = new SqliteSchemaCatalog(locator, ValueExamplePolicy.defaults(), 8, Duration.ZERO);
        assertThat(catalog.schema(DB).tables()).anyMatch(t -> t.name().equalsIgnoreCase("singer"));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + root.resolve(DB).resolve(DB + ".sqlite"));
                Statement s = c.createStatement()) {
            s.execute("DROP TABLE singer_in_concert");
            s.execute("DROP TABLE singer");
        }
        Path dev = SpiderData.sharedData().resolve("spider/dev.json");
        JsonNode item = new ObjectMapper().readTree(dev.toFile()).get(0);
        assertThat(item.path("query").asText()).containsIgnoringCase("FROM singer");
        try (SimulatedEngine engine = new SimulatedEngine(GoldSqlOracle.load(dev), SqlErrorInjector.none(),
                new SqliteSafeExecutor(locator, SqlExecutorConfig.defaults()), catalog,
                CachingValueIndexProvider.ngram(locator, LcsValueScorer.defaults(), 8))) {
            RequestContext ctx = new RequestContext();
            ctx.requestId = "dropped-" + preset;
            ctx.dialogueId = "d-" + preset;
            ctx.dbId = DB;
            ctx.question = item.path("question").asText();
            ctx = engine.run(preset, AgentSettings.defaults(), ctx);

            List<Candidate> ran = ctx.candidates.stream().filter(c -> c.executed).toList();
            assertThat(ran).as("candidates ran in the database").isNotEmpty()
                    .allSatisfy(c -> assertThat(c.error).contains("no such table"));
            AnswerEvent answer = AnswerMapper.fromContext(ctx);
            assertThat(answer.status).isEqualTo("failed");
            assertThat(answer.errorKind).isEqualTo(FailureKind.SQL_ERROR.wireName());
            assertThat(answer.error).contains("failed in the database").contains("no such table")
                    .endsWith(ran.get(ran.size() - 1).error);
            assertThat(answer.failedStage).isIn("answer.finalize", "sqlfix.refine");
            assertThat(answer.sql).isNull();
            assertThat(answer.result).isNull();
        }
    }
}

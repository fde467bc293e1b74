package io.flowsql.agents.opensearch;

import io.flowsql.pipeline.StageSql;
import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.HistoryRenderer;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.agents.common.SchemaViews;
import io.flowsql.agents.common.AgentSettings;
import io.flowsql.agents.opensearch.align.AlignmentRules;
import io.flowsql.agents.opensearch.align.DialectAlignment;
import io.flowsql.agents.opensearch.align.model.ModelAligner;
import io.flowsql.agents.opensearch.correct.ErrorClass;
import io.flowsql.agents.opensearch.correct.ExecutionCorrector;
import io.flowsql.agents.opensearch.correct.ExecutionProblem;
import io.flowsql.agents.opensearch.correct.OpenSearchCorrectStage;
import io.flowsql.llm.ChatMessage;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.CandidateRunner;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.ResultComparator;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.server.DatabaseParts;
import io.flowsql.sql.server.ServerDatabases;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dialect end to end on a real PostgreSQL and real DuckDB files holding Spider's concert_singer (beside its SQLite
 * file): prompts name the database's engine and its rules, OpenSearch-SQL's correction classifies each engine's own
 * error messages and asks with the engine's prompt (a scripted model), and dialect alignment turns SQLite habits into
 * SQL the engine runs with SQLite's result.
 */
class EngineDialectTest {
    private static final String SQLITE = "concert_singer";
    private static final String PG = "pg_concert_singer";
    private static final String DUCK = "duck_concert_singer";
    private static final String FRENCH = "What are the names of the singers from France?";

    static DatabaseParts parts;
    static SchemaContext schemas;
    static CandidateRunner runner;

    @BeforeAll
    static void start() {
        parts = DatabaseParts.build(ServerDatabases.get().registry(), SqlExecutorConfig.defaults().withTimeoutMillis(5_000), 8);
        schemas = new SchemaContext(io.flowsql.access.DataDoors.open(parts.sql(), parts.catalog(), parts.values()),
                SchemaViews.over(parts.sql()), new HistoryRenderer());
        runner = new CandidateRunner(schemas.doors());
    }

    @AfterAll
    static void stop() {
        parts.sql().close();
    }

    private static RequestContext request(String dbId, String question, Candidate... candidates) {
        RequestContext ctx = new RequestContext();
        ctx.dbId = dbId;
        ctx.question = question;
        ctx.candidates.addAll(List.of(candidates));
        return ctx;
    }

    private static io.flowsql.agents.common.PromptFields fields(String dbId) {
        return schemas.promptFields(request(dbId, FRENCH)).with("values", "(none)").with("examples", "(none)")
                .with("extraction", "(none)").with("sql", "SELECT 1").with("problem", "x");
    }

    @Test
    void everyPromptNamesTheDatabasesEngineAndItsRules() {
        Map<String, String> expected = Map.of(SQLITE, "SQLite", PG, "PostgreSQL", DUCK, "DuckDB");
        PromptPair generate = PromptPair.load("opensearch/generate");
        PromptPair syntax = PromptPair.load("opensearch/correct_syntax");
        for (var e : expected.entrySet()) {
            var fields = fields(e.getKey());
            String system = generate.render(fields).get(0).content();
            assertThat(system).as(e.getKey()).contains("Write a " + e.getValue() + " query", "<one " + e.getValue() + " query>",
                    e.getValue() + ": text values in single quotes");
            String other = e.getValue().equals("SQLite") ? "PostgreSQL" : "SQLite";
            assertThat(system).as(e.getKey()).doesNotContain(other);
            assertThat(syntax.render(fields).get(0).content()).as(e.getKey())
                    .contains("a function " + e.getValue() + " does", "(use " + e.getValue() + "'s own");
        }
        String pg = generate.render(fields(PG)).get(0).content();
        assertThat(pg).contains("must be in GROUP BY", "ILIKE", "NULL sorts last in ascending");
    }

    @Test
    void eachEnginesErrorMessagesAreClassifiedForCorrection() {
        Map<String, ErrorClass> cases = Map.of(
                "SELECT Nme FROM singer", ErrorClass.SCHEMA,
                "SELECT Name FROM singers", ErrorClass.SCHEMA,
                "SELECT T1.Name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.Singer_ID = T3.Singer_ID", ErrorClass.SCHEMA,
                "SELECT Name FROM singer WHERE", ErrorClass.SYNTAX,
                "SELECT Country, Name FROM singer GROUP BY Country", ErrorClass.SYNTAX,
                "SELECT Name FROM singer WHERE Age = 'thirty' || Name", ErrorClass.SYNTAX,
                "SELECT julianday(Name) FROM singer", ErrorClass.SYNTAX);
        for (String db : List.of(PG, DUCK)) {
            for (var c : cases.entrySet()) {
                Candidate ran = runner.run(db, new Candidate("x", c.getKey()));
                assertThat(ran.error).as(db + ": " + c.getKey()).isNotNull();
                assertThat(ExecutionProblem.of(ran, FRENCH, runner.engineOf(db)).map(ExecutionProblem::kind)).as(db + ": " + ran.error)
                        .contains(c.getValue());
            }
        }
    }

    @Test
    void aStrictGroupByErrorIsCorrectedWithTheEnginesPrompt() {
        ScriptedLlmClient llm = ScriptedLlmClient.responds(r -> List.of(r.stage().equals("opensearch.correct.syntax")
                ? "#reason: grouped.\n```sql\nSELECT Country, count(*) FROM singer GROUP BY Country\n```" : "no"));
        for (String db : List.of(PG, DUCK)) {
            Candidate broken = runner.run(db, new Candidate("opensearch#0", "SELECT Country, Name, count(*) FROM singer GROUP BY Country"));
            RequestContext ctx = request(db, "How many singers come from each country?", broken);
            new OpenSearchCorrectStage(new ExecutionCorrector(new AgentCall(llm), runner, 2), schemas,
                    new QuestionValues(schemas, 6)).applyAs("opensearch.correct", ctx).join();
            assertThat(broken.error).as(db).isNull();
            assertThat(broken.rowCount).as(db).isEqualTo(3);
            assertThat(ctx.notes).containsEntry("correct.opensearch#0", "syntax>fixed");
        }
        String engine = parts.sql().engineOf(PG).displayName();
        List<String> systems = llm.requests().stream().map(r -> r.messages().get(0)).map(ChatMessage::content).toList();
        assertThat(systems).hasSize(2);
        assertThat(systems.get(0)).contains("You correct " + engine + " queries", "must be in GROUP BY").doesNotContain("SQLite");
        assertThat(systems.get(1)).contains("You correct DuckDB queries", "any_value").doesNotContain("SQLite");
        assertThat(llm.requests().get(0).messages().get(1).content()).contains("must appear in the GROUP BY clause");
    }

    @Test
    void dialectAlignmentWritesSqliteHabitsInTheEnginesSqlWithSqlitesResult() {
        DialectAlignment rule = new DialectAlignment(parts.sql()::engineOf);
        ResultComparator same = new ResultComparator(ComparisonMode.SPIDER_TEST_SUITE);
        for (String sql : List.of("SELECT Name FROM singer WHERE Country = \"France\"",
                "SELECT count(*) FROM singer WHERE Country IN (\"France\", \"Netherlands\") AND Name LIKE '%joe%'",
                "SELECT T1.Name FROM singer AS T1 WHERE T1.Country != \"France\" ORDER BY T1.Age")) {
            ExecutionResult gold = parts.sql().execute(SQLITE, sql);
            assertThat(gold.ok() && !gold.rows().isEmpty()).as(sql).isTrue();
            assertThat(rule.apply(sql, parts.catalog().schema(SQLITE))).as("SQLite is left alone").isEmpty();
            for (String db : List.of(PG, DUCK)) {
                assertThat(parts.sql().execute(db, sql).ok()).as(db + " fails before: " + sql).isFalse();
                Optional<String> aligned = rule.apply(sql, parts.catalog().schema(db));
                assertThat(aligned).as(db + ": " + sql).isPresent();
                assertThat(aligned.get()).doesNotContain("\"");
                ExecutionResult r = parts.sql().execute(db, aligned.get());
                assertThat(r.error()).as(db + ": " + aligned.get()).isNull();
                assertThat(same.equal(gold, sql, r)).as(db + ": " + aligned.get() + " " + r.rows() + " vs " + gold.rows()).isTrue();
            }
        }
        // a double-quoted name the schema has stays a name
        String named = "SELECT \"Name\" FROM singer WHERE \"Country\" = 'France'";
        assertThat(rule.apply(named, parts.catalog().schema(PG))).isEmpty();
        assertThat(parts.sql().engineOf(DUCK)).isEqualTo(DatabaseEngine.DUCKDB);
    }

    @Test
    void theModelAlignmentModeAppliesTheDialectRuleFirstToo() {
        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds("#reason: unused\n#SQL:\n```sql\nSELECT 1\n```");
        OpenSearchAlignStage stage = new OpenSearchAlignStage(
                AlignmentRules.fromSettings(AgentSettings.defaults(), new StageSql(schemas.doors())),
                new ModelAligner(new AgentCall(llm)), null, schemas,
                new QuestionValues(schemas, 6), OpenSearchAlignStage.MODEL);
        for (String db : List.of(PG, DUCK)) {
            RequestContext ctx = request(db, FRENCH, new Candidate("opensearch#0", "SELECT Name FROM singer WHERE Country = \"France\""));
            RequestContext aligned = stage.applyAs("opensearch.align", ctx).join();
            assertThat(aligned.error).as(db).isNull();
            assertThat(aligned.notes).containsEntry("align.mode", "model");
            assertThat(aligned.notes.get("align.opensearch#0")).as(db).startsWith(DialectAlignment.NAME);
            assertThat(aligned.candidates.get(0).sql).as(db).doesNotContain("\"");
            assertThat(parts.sql().execute(db, aligned.candidates.get(0).sql).error()).as(db).isNull();
        }
    }
}

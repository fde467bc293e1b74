package io.flowsql.access;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.HistoryRenderer;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.agents.common.SchemaViews;
import io.flowsql.agents.opensearch.OpenSearchGenerateStage;
import io.flowsql.agents.opensearch.ProgressiveGenerator;
import io.flowsql.agents.opensearch.QuestionValues;
import io.flowsql.llm.ChatMessage;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.sql.ValueMatch;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.catalog.SqliteSchemaCatalog;
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
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Value retrieval goes through the door: a SQLite database {@code vault} whose hidden table {@code secret_vault} holds
 * canary values, and tenant {@code team} allowed only {@code visible_note}. Questions that name the canaries find them
 * for the operator (the index does hold them), never for the team: not in the door's matches, not in the values an
 * OpenSearch prompt shows, not in the generation prompt the model receives.
 * Before the door held the value index, each caller filtered by hand and {@code QuestionValues}' two-argument
 * constructor filtered nothing: the team's prompt showed {@code Zeppelin Quartermaster 7731A}.
 */
class DataDoorValuesTest {
    private static final String DB = "vault";
    private static final List<String> CANARIES = List.of("zeppelin quartermaster 7731a", "zeppelin quartermaster 7731b",
            "4411-zq-one");
    /** Names the canaries loosely (so the question itself carries none of them as stored), and a visible value. */
    private static final String QUESTION = "Which note is filed by the zeppelin quartermaster 77 next to the "
            + "harbour quarterly report?";
    private static final AccessPolicies POLICIES = AccessPolicies.fromOptions(Map.of(
            "team.databases", DB, "team.tables." + DB, "visible_note", "admin.databases", DB), "");

    @TempDir
    static Path root;
    private static SqliteSafeExecutor executor;
    private static DataDoors room;
    private static SchemaContext schemas;

    @BeforeAll
    static void vault() throws Exception {
        Path file = Files.createDirectories(root.resolve(DB)).resolve(DB + ".sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE visible_note (id INTEGER PRIMARY KEY, note TEXT)");
            s.execute("INSERT INTO visible_note VALUES (1, 'harbour quarterly report'), (2, 'canteen menu')");
            s.execute("CREATE TABLE secret_vault (id INTEGER PRIMARY KEY, code TEXT, owner TEXT)");
            s.execute("INSERT INTO secret_vault VALUES (1, 'Zeppelin Quartermaster 7731A', '4411-zq-one'), "
                    + "(2, 'Zeppelin Quartermaster 7731B', '4411-zq-two')");
        }
        DatabaseLocator locator = new DatabaseLocator(List.of(root), List.of());
        executor = new SqliteSafeExecutor(locator, SqlExecutorConfig.defaults());
        room = new DataDoors(executor, new SqliteSchemaCatalog(locator),
                CachingValueIndexProvider.ngram(locator, LcsValueScorer.defaults(), 2), POLICIES);
        schemas = new SchemaContext(room, SchemaViews.over(executor), new HistoryRenderer());
    }

    @AfterAll
    static void close() {
        executor.close();
    }

    private static RequestContext ask(String tenant) {
        RequestContext ctx = new RequestContext();
        ctx.requestId = "r-" + tenant;
        ctx.dbId = DB;
        ctx.tenant = tenant;
        ctx.question = QUESTION;
        return ctx;
    }

    private static void assertNoCanary(String where, String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        for (String canary : CANARIES) {
            assertThat(lower).as("%s carries hidden %s", where, canary).doesNotContain(canary);
        }
    }

    private static String valuesText(List<ValueMatch> found) {
        return found.stream().map(v -> v.table() + "." + v.column() + "=" + v.value()).collect(Collectors.joining("\n"));
    }

    @Test
    void theDoorFindsOnlyValuesOfTheTenantsTables() {
        String operator = valuesText(room.operator(DB).values(QUESTION, 6));
        assertThat(operator.toLowerCase(Locale.ROOT)).as("the index holds the canaries")
                .contains(CANARIES.get(0), CANARIES.get(1));
        assertThat(valuesText(room.door(DB, "admin").values(QUESTION, 6))).isEqualTo(operator);

        List<ValueMatch> team = room.door(DB, "team").values(QUESTION, 6);
        assertNoCanary("the team's matches", valuesText(team));
        assertThat(team).as("the team's own table still answers").extracting(ValueMatch::value)
                .contains("harbour quarterly report");
        assertThat(team).extracting(ValueMatch::table).containsOnly("visible_note");

        for (String nobody : new String[] {null, "stranger"}) {
            assertThat(room.door(DB, nobody).values(QUESTION, 6)).as(String.valueOf(nobody)).isEmpty();
        }
    }

    @Test
    void noCanaryReachesTheTeamsPromptValuesOrGenerationPrompt() {
        QuestionValues values = new QuestionValues(schemas, 6);
        assertThat(values.text(ask("admin")).toLowerCase(Locale.ROOT)).contains(CANARIES.get(0));
        assertNoCanary("the team's prompt values", values.text(ask("team")));

        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds("#reason: the note\n#columns: visible_note.note\n"
                + "#values: none\n#SELECT: SELECT note\n#SQL-like: SELECT note FROM visible_note\n"
                + "#SQL:\n```sql\nSELECT note FROM visible_note\n```");
        RequestContext team = ask("team");
        new OpenSearchGenerateStage(new ProgressiveGenerator(new AgentCall(llm), 1, 0.0), schemas, 6)
                .applyAs("opensearch.generate", team).join();
        String prompts = llm.requests().stream().flatMap(r -> r.messages().stream()).map(ChatMessage::content)
                .collect(Collectors.joining("\n"));
        assertThat(prompts).contains("harbour quarterly report");
        assertNoCanary("the team's generation prompt", prompts);
    }
}

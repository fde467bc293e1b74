package io.flowsql.sql.server;

import io.flowsql.access.DataDoors;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flowsql.access.AccessPolicies;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.CandidateRunner;
import io.flowsql.pipeline.ExecuteCandidatesStage;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageSql;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SpiderData;
import io.flowsql.sql.SqlError;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.exec.SafeExecutor;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.registry.DatabaseDeclaration;
import io.flowsql.sql.registry.DatabaseRegistry;
import io.flowsql.sql.registry.ValueSampling;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A PostgreSQL role per tenant ({@code tenants.<t>.roles.<db>}) on a real embedded PostgreSQL: the database's own grants
 * and row-level security decide what a tenant's SQL reads. The role {@code team_north} may SELECT {@code singer} (whole)
 * and {@code orders} (row-level security: region north only), nothing on {@code salaries}; the login role reads all.
 * A question of team-north runs its candidates (and any stage's SQL, through {@link StageSql}) as that role; its pooled
 * connection (one per database here, so the same one every time) is back to the login role after each statement.
 */
class TenantRolesTest {
    private static final String DB = "roles_pg";
    private static final String SCHEMA = "roles_demo";
    private static final String ROLE = "team_north";
    private static final AccessPolicies POLICIES = AccessPolicies.fromOptions(Map.of(
            "team-north.databases", DB,
            "team-north.roles." + DB, ROLE,
            "team-all.databases", DB), "");

    private static SafeExecutor executor;

    @BeforeAll
    static void start() throws Exception {
        ServerDatabases servers = ServerDatabases.get();
        try (Connection admin = servers.admin(); Statement s = admin.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            try (ResultSet r = s.executeQuery("SELECT 1 FROM pg_roles WHERE rolname = '" + ROLE + "'")) {
                if (!r.next()) {
                    s.execute("CREATE ROLE " + ROLE + " NOLOGIN");
                }
            }
            s.execute("GRANT " + ROLE + " TO " + ServerDatabases.READER);  // the login role may SET ROLE to it
            s.execute("CREATE SCHEMA " + SCHEMA);
            s.execute("CREATE TABLE " + SCHEMA + ".singer AS SELECT * FROM concert_singer.singer");
            s.execute("CREATE TABLE " + SCHEMA + ".orders (id int PRIMARY KEY, region text, amount int)");
            s.execute("INSERT INTO " + SCHEMA + ".orders VALUES (1, 'north', 10), (2, 'north', 20), (3, 'south', 30), (4, 'west', 40)");
            s.execute("CREATE TABLE " + SCHEMA + ".salaries (id int PRIMARY KEY, amount int)");
            s.execute("INSERT INTO " + SCHEMA + ".salaries VALUES (1, 100000)");
            s.execute("GRANT USAGE ON SCHEMA " + SCHEMA + " TO " + ServerDatabases.READER + ", " + ROLE);
            s.execute("GRANT SELECT ON ALL TABLES IN SCHEMA " + SCHEMA + " TO " + ServerDatabases.READER);
            s.execute("GRANT SELECT ON " + SCHEMA + ".singer, " + SCHEMA + ".orders TO " + ROLE);
            s.execute("ALTER TABLE " + SCHEMA + ".orders ENABLE ROW LEVEL SECURITY");
            s.execute("CREATE POLICY north_only ON " + SCHEMA + ".orders FOR SELECT TO " + ROLE + " USING (region = 'north')");
            s.execute("CREATE POLICY reader_all ON " + SCHEMA + ".orders FOR SELECT TO " + ServerDatabases.READER + " USING (true)");
        }
        // one connection: every statement below reuses the connection the role was set on
        DatabaseDeclaration declared = new DatabaseDeclaration(DB, DatabaseEngine.POSTGRESQL, servers.pgUrl(),
                ServerDatabases.READER, "", servers.secretsFile.toString(), List.of(SCHEMA), List.of(), 1, 0, 0, 0, 0,
                ValueSampling.defaults());
        DatabaseRegistry registry = new DatabaseRegistry(SpiderData.locator(), List.of(declared));
        executor = DatabaseParts.executor(registry, SqlExecutorConfig.defaults().withTimeoutMillis(5_000));
    }

    @AfterAll
    static void stop() {
        executor.close();
    }

    private static List<Candidate> ask(String tenant, String... sqls) {
        RequestContext ctx = new RequestContext();
        ctx.requestId = "r-" + tenant;
        ctx.dbId = DB;
        ctx.tenant = tenant;
        for (int i = 0; i < sqls.length; i++) {
            ctx.candidates.add(new Candidate("gen#" + i, sqls[i]));
        }
        new ExecuteCandidatesStage(new CandidateRunner(new DataDoors(executor, null, POLICIES), ComparisonMode.SPIDER_TEST_SUITE, 10))
                .applyAs("candidates.execute", ctx).join();
        return ctx.candidates;
    }

    private static String currentUser() {
        ExecutionResult r = StageSql.open(executor).execute(new StageSql.Scope(DB, null, null), "SELECT current_user");
        assertThat(r.error()).isNull();
        return String.valueOf(r.rows().get(0).get(0));
    }

    @Test
    void aTenantsQuestionSeesOnlyWhatItsRoleIsGrantedAndTheConnectionGoesBackToTheLoginRole() {
        List<Candidate> north = ask("team-north", "SELECT current_user", "SELECT count(*) FROM singer",
                "SELECT sum(amount) FROM orders", "SELECT amount FROM salaries");
        assertThat(north.get(0).preview.get(0).cells).containsExactly(ROLE);
        assertThat(north.get(1).preview.get(0).cells).as("SELECT on the whole table").containsExactly("6");
        assertThat(north.get(2).preview.get(0).cells).as("row-level security: north's rows only").containsExactly("30");
        assertThat(north.get(3).error).as("no grant").startsWith(SqlError.Kind.REFUSED + ": ").contains("permission denied");
        assertThat(north.get(3).preview).isEmpty();
        assertThat(currentUser()).as("the pooled connection after the question").isEqualTo(ServerDatabases.READER);

        List<Candidate> all = ask("team-all", "SELECT current_user", "SELECT sum(amount) FROM orders",
                "SELECT amount FROM salaries");
        assertThat(all.get(0).preview.get(0).cells).as("a tenant without a role: the login role").containsExactly(ServerDatabases.READER);
        assertThat(all.get(1).preview.get(0).cells).containsExactly("100");
        assertThat(all.get(2).preview.get(0).cells).containsExactly("100000");
    }

    @Test
    void theRoleLastsOneStatementEvenWhenItFails() {
        StageSql sql = new StageSql(new DataDoors(executor, null, POLICIES));
        assertThat(sql.execute(new StageSql.Scope(DB, "team-north", null), "SELECT amount FROM salaries").ok()).isFalse();
        assertThat(sql.execute(new StageSql.Scope(DB, "team-north", null), "SELECT * FROM pg_sleep(10)").ok()).isFalse();
        assertThat(currentUser()).isEqualTo(ServerDatabases.READER);
        assertThat(sql.execute(new StageSql.Scope(DB, "team-all", null), "SELECT amount FROM salaries").rowCount()).isEqualTo(1);
    }

    @Test
    void aRoleThatCannotBeSetFailsTheStatementWithoutNamingIt() {
        AccessPolicies unknown = AccessPolicies.fromOptions(Map.of("x.databases", DB, "x.roles." + DB, "no_such_role"), "");
        ExecutionResult r = new StageSql(new DataDoors(executor, null, unknown)).execute(new StageSql.Scope(DB, "x", null), "SELECT 1");
        assertThat(r.ok()).isFalse();
        assertThat(r.error().message()).doesNotContain("no_such_role");
        assertThat(currentUser()).isEqualTo(ServerDatabases.READER);
    }

    @Test
    void roleNamesAreIdentifiersAndOnlyPostgresqlSetsThem() {
        assertThatThrownBy(() -> AccessPolicies.fromOptions(Map.of("x.databases", DB, "x.roles." + DB, "r; RESET ROLE"), ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tenants.x.roles." + DB);
        assertThatThrownBy(() -> AccessPolicies.fromOptions(Map.of("x.roles." + DB, ROLE), ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no tenants.x.databases");
        AccessPolicies onSqlite = AccessPolicies.fromOptions(Map.of("x.databases", "*", "x.roles.concert_singer", ROLE), "");
        ExecutionResult r = new StageSql(new DataDoors(executor, null, onSqlite)).execute(new StageSql.Scope("concert_singer", "x", null),
                "SELECT count(*) FROM singer");
        assertThat(r.ok()).as("a role is never silently dropped").isFalse();
        assertThat(r.error().kind()).isEqualTo(SqlError.Kind.REFUSED);
    }
}

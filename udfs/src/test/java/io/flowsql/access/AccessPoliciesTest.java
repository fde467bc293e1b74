package io.flowsql.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.HistoryRenderer;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.TableSchema;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AccessPoliciesTest {
    private final AccessPolicies policies = AccessPolicies.fromOptions(Map.of(
            "team-a.databases", "concert_singer, pets_1",
            "team-a.tables.concert_singer", "singer,concert",
            "team-b.databases", "*",
            "team-c.databases", "warehouse",
            "team-c.tables.warehouse", "sales.*,hr.employees"), "^([a-z-]+)/");

    @Test
    void withNoTenantConfiguredEverythingIsAllowed() {
        AccessPolicies none = AccessPolicies.allowAll();
        assertFalse(none.enforced());
        assertTrue(none.allowsDatabase(null, "anything"));
        assertTrue(none.tables("x", "db").test("t"));
    }

    @Test
    void databasesPerTenantAndUnknownOrMissingTenantsRefused() {
        assertTrue(policies.allowsDatabase("team-a", "pets_1"));
        assertFalse(policies.allowsDatabase("team-a", "car_1"));
        assertTrue(policies.allowsDatabase("team-b", "car_1"));
        assertFalse(policies.allowsDatabase("team-z", "car_1"));
        assertFalse(policies.allowsDatabase(null, "car_1"));
    }

    @Test
    void theTenantIsTheQuestionsOwnElseDerivedFromTheDialogueId() {
        assertEquals("team-b", policies.tenantOf("team-b", "team-a/1"));
        assertEquals("team-a", policies.tenantOf(null, "team-a/1"));
        assertNull(policies.tenantOf(null, "no-slash"));
    }

    @Test
    void tableListsWithNamespacesAndTheSqlGate() {
        assertTrue(policies.restrictsTables("team-a", "concert_singer"));
        assertFalse(policies.restrictsTables("team-a", "pets_1"));
        var warehouse = policies.tables("team-c", "warehouse");
        assertTrue(warehouse.test("sales.orders"));
        assertTrue(warehouse.test("HR.Employees"));
        assertFalse(warehouse.test("hr.salaries"));
        assertFalse(warehouse.test("salesman.x"));

        var concert = policies.tables("team-a", "concert_singer");
        assertTrue(TableGate.refusal("SELECT count(*) FROM singer", concert, DatabaseEngine.SQLITE).isEmpty());
        assertTrue(TableGate.refusal("WITH s AS (SELECT * FROM singer) SELECT * FROM s", concert, DatabaseEngine.SQLITE).isEmpty());
        assertEquals(TableGate.REFUSAL, TableGate.refusal(
                "SELECT T1.name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id", concert, DatabaseEngine.SQLITE).orElseThrow());
        assertEquals(TableGate.REFUSAL, TableGate.refusal("SELECT * FROM \"stadium\"", concert, DatabaseEngine.SQLITE).orElseThrow());
        assertEquals(TableGate.REFUSAL, TableGate.refusal("SELECT * FROM singer WHERE x IS NOT y", concert, DatabaseEngine.SQLITE).orElseThrow(),
                "a statement the parser cannot read is refused");
    }

    @Test
    void badOptionsFailAtConfiguration() {
        assertThrows(IllegalArgumentException.class, () -> AccessPolicies.fromOptions(Map.of("team-a.dbs", "x"), ""));
        assertThrows(IllegalArgumentException.class, () -> AccessPolicies.fromOptions(Map.of("team-a.tables.db", "x"), ""));
        assertThrows(RuntimeException.class, () -> AccessPolicies.fromOptions(Map.of(), "(unclosed"));
    }

    @Test
    void theSchemaAStageSeesHoldsOnlyTheTenantsTables() {
        SchemaContext schemas = new SchemaContext(new io.flowsql.access.DataDoors(null, SpiderAgentParts.CATALOG, policies),
                SpiderAgentParts.VIEWS, new HistoryRenderer());
        RequestContext ctx = new RequestContext();
        ctx.dbId = "concert_singer";
        ctx.tenant = "team-a";
        assertEquals(List.of("singer", "concert"), schemas.schema(ctx).tables().stream().map(TableSchema::name).toList());
        String prompt = schemas.schemaText(ctx);
        assertTrue(prompt.contains("# Table: singer"));
        assertFalse(prompt.contains("stadium"), prompt);
        assertTrue(schemas.schema(ctx).foreignKeys().isEmpty());
        ctx.tenant = "team-b";
        assertEquals(4, schemas.schema(ctx).tables().size());
        ctx.retrievedTables = List.of("stadium");
        assertEquals(List.of("stadium"), schemas.schema(ctx).tables().stream().map(TableSchema::name).toList());
    }
}

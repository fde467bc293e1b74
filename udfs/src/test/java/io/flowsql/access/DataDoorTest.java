package io.flowsql.access;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.TableSchema;
import org.junit.jupiter.api.Test;

/**
 * The door of a database for a tenant, on Spider's {@code concert_singer} (SQLite): it shows and runs what the
 * tenant's policy allows and nothing else, whatever the caller asks; the operator's door has no policy.
 */
class DataDoorTest {
    private static final String DB = "concert_singer";
    private static final DataDoors ROOM = SpiderRooms.narrowWideAnd("other", "pets_1");

    @Test
    void aNarrowTenantSeesAndReadsOnlyItsTables() {
        DataDoor door = ROOM.door(DB, "narrow");
        assertThat(door.admits()).isTrue();
        assertThat(door.schema().tables()).extracting(TableSchema::name).containsExactly("singer");
        assertThat(door.schema().foreignKeys()).isEmpty();
        assertThat(door.execute("SELECT count(*) FROM singer").rows()).containsExactly(java.util.List.of(6L));
        ExecutionResult hidden = door.execute("SELECT name FROM stadium");
        assertThat(hidden.ok()).isFalse();
        assertThat(hidden.error().message()).isEqualTo("table stadium is not available");
        assertThat(door.schema()).as("the cut is made once per schema and tenant").isSameAs(door.schema());
    }

    @Test
    void aTenantWithTheWholeDatabaseSeesEveryTable() {
        DatabaseSchema whole = ROOM.operator(DB).schema();
        assertThat(whole.tables()).hasSizeGreaterThan(1);
        assertThat(ROOM.door(DB, "wide").schema()).isSameAs(whole);
        assertThat(ROOM.door(DB, "wide").execute("SELECT count(*) FROM stadium").ok()).isTrue();
    }

    @Test
    void aTenantOfAnotherDatabaseOrNoTenantSeesAndRunsNothing() {
        for (DataDoor door : java.util.List.of(ROOM.door(DB, "other"), ROOM.door(DB, null), ROOM.door(DB, "stranger"))) {
            assertThat(door.admits()).as(String.valueOf(door.tenant())).isFalse();
            assertThat(door.schema().tables()).as(String.valueOf(door.tenant())).isEmpty();
            ExecutionResult r = door.execute("SELECT count(*) FROM singer");
            assertThat(r.ok()).as(String.valueOf(door.tenant())).isFalse();
            assertThat(r.error().message()).contains("singer is not available");
        }
    }

    @Test
    void theOperatorsDoorHasNoPolicy() {
        DataDoor operator = ROOM.operator(DB);
        assertThat(operator.tenant()).isNull();
        assertThat(operator.admits()).isTrue();
        assertThat(operator.execute("SELECT count(*) FROM stadium").ok()).isTrue();
    }
}

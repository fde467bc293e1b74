package io.flowsql.agents.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.access.DataDoors;
import io.flowsql.access.SpiderRooms;
import io.flowsql.agents.opensearch.fewshot.ExampleLibrary;
import io.flowsql.agents.opensearch.fewshot.FewShotExample;
import io.flowsql.agents.opensearch.fewshot.FewShotStage;
import io.flowsql.agents.opensearch.fewshot.QuestionMasker;
import io.flowsql.agents.sqlfix.RepairMemory;
import io.flowsql.agents.sqlfix.RepairRecord;
import io.flowsql.pipeline.RequestContext;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The example library and the repair memory are shown through the asker's door ({@code DataDoor.mayShow}): on Spider's
 * {@code concert_singer} (SQLite), tenant {@code narrow} may read only {@code singer}, {@code wide} the whole database,
 * {@code all} every database. An example or repair whose SQL reads a table the asker may not read, or a database it
 * may not ask, is never chosen for it, however similar its question.
 */
class ScopedLibrariesTest {
    private static final String DB = "concert_singer";
    private static final DataDoors ROOM = SpiderRooms.narrowWideAnd("all", "*");
    private static final ExampleLibrary LIBRARY = new ExampleLibrary(List.of(
            example("singers", DB, "How many singers are there?", "SELECT count(*) FROM singer"),
            example("stadiums", DB, "How many stadiums are there?", "SELECT count(*) FROM stadium"),
            example("hidden-join", DB, "How many singers sang in concerts?",
                    "SELECT count(*) FROM singer s JOIN singer_in_concert c ON s.singer_id = c.singer_id"),
            example("pets", "pets_1", "How many pets are there?", "SELECT count(*) FROM pets")));

    private static FewShotExample example(String id, String db, String question, String sql) {
        return new FewShotExample(id, db, question, QuestionMasker.mask(question, ROOM.operator(db).schema()), null, sql);
    }

    private static List<String> chosen(String tenant) {
        RequestContext ctx = new RequestContext();
        ctx.dbId = DB;
        ctx.tenant = tenant;
        ctx.question = "How many singers are there in all?";
        new FewShotStage(ROOM.holding(LIBRARY), 4, false).applyAs("opensearch.fewshot", ctx).join();
        String note = ctx.notes.getOrDefault(FewShotStage.NOTE, "");
        return note.isEmpty() ? List.of() : Arrays.stream(note.split(",")).map(e -> e.substring(0, e.indexOf('='))).sorted().toList();
    }

    @Test
    void anExampleIsChosenOnlyWhenItsSqlReadsWhatTheAskerMayRead() {
        assertThat(chosen("narrow")).containsExactly("singers");
        assertThat(chosen("wide")).containsExactly("hidden-join", "singers", "stadiums");
        assertThat(chosen("all")).containsExactly("hidden-join", "pets", "singers", "stadiums");
        assertThat(chosen("stranger")).as("a tenant not allowed the database").isEmpty();
    }

    /**
     * The library is reached only through a door: a room that does not hold it gives none, and the view a door gives
     * hands out by id (as the generator's prompt asks) only what that door's tenant may be shown.
     */
    @Test
    void theLibraryIsReachedOnlyThroughADoorCutToItsTenant() {
        assertThat(ROOM.door(DB, "all").learned(ExampleLibrary.class)).as("a room that holds no library").isEmpty();
        DataDoors holding = ROOM.holding(LIBRARY);
        ExampleLibrary.Shown narrow = holding.door(DB, "narrow").learned(ExampleLibrary.class).orElseThrow();
        assertThat(narrow.byId("singers")).isPresent();
        assertThat(narrow.byId("stadiums")).as("an example over a hidden table").isEmpty();
        assertThat(narrow.byId("pets")).as("an example of a database the tenant may not ask").isEmpty();
        assertThat(holding.door(DB, "all").learned(ExampleLibrary.class).orElseThrow().byId("pets")).isPresent();
        assertThat(holding.door(DB, "stranger").learned(ExampleLibrary.class).orElseThrow().byId("singers")).isEmpty();
    }

    @Test
    void aRepairIsShownOnlyWhenBothItsStatementsReadWhatTheAskerMayRead() {
        RepairMemory memory = RepairMemory.inMemory();
        memory.add(new RepairRecord(DB, "How many singers are there?", "SELECT count(*) FROM singer WHERE age > 0",
                "SELECT count(*) FROM singer", "wrong table name"));
        memory.add(new RepairRecord(DB, "How many singers are there by stadium?", "SELECT count(*) FROM singer",
                "SELECT count(*) FROM stadium", "wrong table"));
        memory.add(new RepairRecord(DB, "How many singers are there, capacity?", "SELECT capacity FROM stadium",
                "SELECT count(*) FROM singer", "wrong table"));
        for (String tenant : List.of("narrow", "wide")) {
            List<RepairRecord> shown = ROOM.holding(memory).door(DB, tenant).learned(RepairMemory.class).orElseThrow()
                    .similar("How many singers are there?", "SELECT count(*) FROM singer", 5, List.of(), false);
            assertThat(shown).as(tenant).hasSize(tenant.equals("narrow") ? 1 : 3);
            if (tenant.equals("narrow")) {
                assertThat(shown.get(0).fixedSql()).isEqualTo("SELECT count(*) FROM singer");
                assertThat(shown.get(0).wrongSql()).doesNotContain("stadium");
            }
        }
    }
}

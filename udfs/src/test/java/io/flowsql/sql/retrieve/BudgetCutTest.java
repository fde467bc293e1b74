package io.flowsql.sql.retrieve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ForeignKey;
import io.flowsql.sql.SpiderData;
import io.flowsql.sql.TableSchema;
import io.flowsql.sql.catalog.SqliteSchemaCatalog;
import io.flowsql.sql.render.SchemaRenderer;
import io.flowsql.sql.render.TokenCounter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The one-pass cut by summed costs against the former cut (per-table costs without foreign-key lines, then the whole
 * kept schema rendered again for every table dropped from the end), on real Spider schemas merged into one catalog.
 */
class BudgetCutTest {
    private final TokenCounter tokens = new TokenCounter();
    private final SchemaRenderer renderer = new SchemaRenderer(tokens, null);

    @Test
    void summedCostsCutAsTheFormerReRenderingLoopDidOrKeepMoreWithinTheBudget() throws Exception {
        DatabaseSchema warehouse = merged("concert_singer", "pets_1", "car_1", "flight_2", "employee_hire_evaluation",
                "cre_Doc_Template_Mgt", "course_teach", "museum_visit", "wta_1", "battle_death", "student_transcripts_tracking",
                "tvshow", "poker_player", "voter_1", "world_1", "orchestra", "network_1", "dog_kennels", "singer", "real_estate_properties");
        TableCosts costs = new TableCosts(warehouse, renderer, tokens);
        Random random = new Random(7);
        int same = 0;
        int better = 0;
        for (int trial = 0; trial < 60; trial++) {
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < warehouse.tables().size(); i++) {
                order.add(i);
            }
            java.util.Collections.shuffle(order, random);
            order = order.subList(0, 10 + random.nextInt(order.size() - 10));
            int budget = 150 + random.nextInt(1500);
            Former former = former(warehouse, order, costs, budget);
            BudgetCut cut = new BudgetCut(order, costs, budget, SchemaRetriever.DETAILED_SHARE);
            DatabaseSchema kept = subset(warehouse, cut.kept, cut.brief);
            int rendered = renderer.full(kept).tokens();
            // the sum is the rendering's length but for the tokenizer's merges across parts
            assertTrue(Math.abs(rendered - cut.tokens) <= 3, rendered + " rendered vs " + cut.tokens + " summed");
            assertTrue(rendered <= budget || cut.trimTo(cut.tokens - (rendered - budget)), "over the budget");
            if (cut.kept.equals(former.kept) && cut.brief.equals(former.brief)) {
                same++;
            } else {
                // where they differ, the former dropped tables from the end to make room for foreign-key lines;
                // the sums pass over only what does not fit, so they keep at least as many tables
                better++;
                assertTrue(cut.kept.size() >= former.kept.size(), cut.kept + " vs former " + former.kept);
                assertTrue(former.tokens > 0);
            }
        }
        System.out.printf("cuts the same as the former loop: %d of 60; different (more kept): %d%n", same, better);
        assertTrue(same >= 30, same + " cuts the same of 60");
        assertEquals(60, same + better);
    }

    @Test
    void aForeignKeyLineIsCountedOnceWithTheTableThatCompletesIt() {
        List<ColumnSchema> a = List.of(new ColumnSchema("s.a", "id", "INTEGER", "", false, true, List.of()));
        List<ColumnSchema> b = List.of(new ColumnSchema("s.b", "id", "INTEGER", "", false, true, List.of()),
                new ColumnSchema("s.b", "a_id", "INTEGER", "", true, false, List.of()));
        DatabaseSchema schema = new DatabaseSchema("w", List.of(new TableSchema("s.a", "", a, List.of("id")),
                new TableSchema("s.b", "", b, List.of("id"))),
                List.of(new ForeignKey(new ColumnRef("s.b", "a_id"), new ColumnRef("s.a", "id"))));
        TableCosts costs = new TableCosts(schema, renderer, tokens);
        BudgetCut both = new BudgetCut(List.of(1, 0), costs, 10_000, 1.0);
        assertEquals(renderer.full(schema).tokens(), both.tokens);
        assertEquals(costs.whole, both.tokens);
        BudgetCut one = new BudgetCut(List.of(0), costs, 10_000, 1.0);
        assertEquals(costs.full[0], one.tokens);
    }

    private record Former(List<Integer> kept, Set<Integer> brief, int tokens) {}

    /** The cut as it was: costs without foreign-key lines, then a full rendering per table dropped from the end. */
    private Former former(DatabaseSchema schema, List<Integer> order, TableCosts cost, int budget) {
        List<Integer> kept = new ArrayList<>();
        Set<Integer> brief = new HashSet<>();
        int used = 0;
        for (int i : order) {
            boolean detailed = used + cost.full[i] <= budget * SchemaRetriever.DETAILED_SHARE;
            int c = detailed ? cost.full[i] : cost.brief[i];
            if (used + c <= budget) {
                kept.add(i);
                used += c;
                if (!detailed) {
                    brief.add(i);
                }
            }
        }
        int t = renderer.full(subset(schema, kept, brief)).tokens();
        while (t > budget && kept.size() > 1) {
            brief.remove(kept.remove(kept.size() - 1));
            t = renderer.full(subset(schema, kept, brief)).tokens();
        }
        return new Former(kept, brief, t);
    }

    private static DatabaseSchema subset(DatabaseSchema schema, List<Integer> kept, Set<Integer> brief) {
        return SchemaSubset.named(schema, kept.stream().map(i -> schema.tables().get(i).name()).collect(Collectors.toSet()),
                brief.stream().map(i -> schema.tables().get(i).name()).collect(Collectors.toSet()));
    }

    /** Spider databases as namespaces of one catalog ({@code pets_1.Pets}). */
    static DatabaseSchema merged(String... databases) {
        SqliteSchemaCatalog catalog = new SqliteSchemaCatalog(SpiderData.locator());
        List<TableSchema> tables = new ArrayList<>();
        List<ForeignKey> keys = new ArrayList<>();
        for (String db : databases) {
            if (!catalog.contains(db)) {
                continue;
            }
            DatabaseSchema s = catalog.schema(db);
            for (TableSchema t : s.tables()) {
                String name = db + "." + t.name();
                tables.add(new TableSchema(name, t.description(), t.columns().stream().map(c -> new ColumnSchema(name, c.name(),
                        c.type(), c.description(), c.nullable(), c.primaryKey(), c.valueExamples())).toList(), t.primaryKey()));
            }
            s.foreignKeys().forEach(fk -> keys.add(new ForeignKey(new ColumnRef(db + "." + fk.from().table(), fk.from().column()),
                    new ColumnRef(db + "." + fk.to().table(), fk.to().column()))));
        }
        return new DatabaseSchema("warehouse", tables, keys);
    }
}

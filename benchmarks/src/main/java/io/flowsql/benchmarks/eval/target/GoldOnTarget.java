package io.flowsql.benchmarks.eval.target;

import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.benchmarks.eval.semantics.Semantics;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.compare.Match;
import io.flowsql.access.DataDoor;
import io.flowsql.access.DataDoors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The dialect gap beside the EX: each question's gold SQL (written for SQLite) run unchanged on the target engine too
 * and judged against its SQLite result by the same semantics, each statement within its executor's budget. A question
 * whose gold does not run on SQLite is not checked (it is out of EX already).
 *
 * @param checked    questions whose gold ran on SQLite
 * @param same       of those, the ones whose gold gives SQLite's result on the target
 * @param fails      item id to the target's error, for golds that do not run on the target
 * @param differs    item ids whose gold runs on the target with another result
 */
public record GoldOnTarget(int checked, List<String> same, Map<String, String> fails, List<String> differs) {

    /** Checks every question of {@code items} that owes SQL, {@code parallel} at once. */
    public static GoldOnTarget check(List<BenchmarkItem> items, DataDoors sqlite, DataDoors target, Semantics semantics,
                                     int parallel) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, parallel), r -> {
            Thread t = new Thread(r, "flowsql-gold-on-target");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<String>> verdicts = new ArrayList<>();
            List<BenchmarkItem> checkedItems = new ArrayList<>();
            for (BenchmarkItem item : items) {
                if (item.owesSql()) {
                    checkedItems.add(item);
                    verdicts.add(pool.submit(() -> verdict(item, sqlite, target, semantics)));
                }
            }
            int checked = 0;
            List<String> same = new ArrayList<>();
            Map<String, String> fails = new TreeMap<>();
            List<String> differs = new ArrayList<>();
            for (int i = 0; i < verdicts.size(); i++) {
                String v;
                try {
                    v = verdicts.get(i).get();
                } catch (ExecutionException e) {
                    v = "fails: " + e.getCause();
                }
                String id = checkedItems.get(i).id();
                if (v == null) {
                    continue;
                }
                checked++;
                if (v.equals("same")) {
                    same.add(id);
                } else if (v.equals("differs")) {
                    differs.add(id);
                } else {
                    fails.put(id, v.substring("fails: ".length()));
                }
            }
            return new GoldOnTarget(checked, same, fails, differs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** null (gold fails on SQLite), "same", "differs" or "fails: why". */
    private static String verdict(BenchmarkItem item, DataDoors sqlite, DataDoors target, Semantics semantics) {
        String gold = semantics.executedGold(item.goldSql());
        ExecutionResult onSqlite = sqlite.operator(item.dbId()).execute(gold);
        if (!onSqlite.ok()) {
            return null;
        }
        DataDoor door = target.operator(item.dbId());
        StatementBudget budget = door.newBudget();
        ExecutionResult onTarget = door.execute(gold, budget);
        if (!onTarget.ok()) {
            return "fails: " + onTarget.error().toString().split("\n")[0];
        }
        Match m = semantics.match(onSqlite, onTarget, gold, budget);
        return m.equal() ? "same" : "differs";
    }
}

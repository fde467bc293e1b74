package io.flowsql.sql.render;

import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ForeignKey;
import io.flowsql.sql.TableSchema;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Which tables a pruned schema needs: the linked ones, plus those on the shortest foreign-key paths between them. */
final class JoinPaths {

    private JoinPaths() {}

    static List<TableSchema> tablesConnecting(DatabaseSchema schema, Collection<ColumnRef> linked) {
        Set<String> wanted = new LinkedHashSet<>();
        linked.forEach(r -> wanted.add(r.table().toLowerCase(Locale.ROOT)));
        Set<String> chosen = new LinkedHashSet<>(wanted);
        List<String> ordered = List.copyOf(wanted);
        for (int i = 1; i < ordered.size(); i++) {
            chosen.addAll(shortestPath(schema, ordered.get(0), ordered.get(i)));
        }
        return schema.tables().stream().filter(t -> chosen.contains(t.name().toLowerCase(Locale.ROOT))).toList();
    }

    /** Tables on a shortest path (undirected foreign-key graph), or none when they are not connected. */
    private static List<String> shortestPath(DatabaseSchema schema, String from, String to) {
        Map<String, String> parent = new HashMap<>();
        ArrayDeque<String> queue = new ArrayDeque<>(List.of(from));
        parent.put(from, from);
        while (!queue.isEmpty()) {
            String table = queue.poll();
            if (table.equals(to)) {
                List<String> path = new java.util.ArrayList<>();
                for (String t = to; !t.equals(from); t = parent.get(t)) {
                    path.add(t);
                }
                return path;
            }
            for (ForeignKey fk : schema.foreignKeys()) {
                String a = fk.from().table().toLowerCase(Locale.ROOT);
                String b = fk.to().table().toLowerCase(Locale.ROOT);
                String next = a.equals(table) ? b : b.equals(table) ? a : null;
                if (next != null && parent.putIfAbsent(next, table) == null) {
                    queue.add(next);
                }
            }
        }
        return List.of();
    }
}

package io.flowsql.benchmarks.eval;

import io.flowsql.agents.opensearch.fewshot.ExampleLibrary;
import io.flowsql.agents.opensearch.fewshot.FewShotExample;
import io.flowsql.feedback.LiveEntry;
import io.flowsql.flink.LiveLibraryFunction;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.catalog.SqliteSchemaCatalog;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.state.api.OperatorIdentifier;
import org.apache.flink.state.api.SavepointReader;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The live library of a savepoint (or retained checkpoint) as few-shot examples: the broadcast state of the
 * {@code live-library} operator read with Flink's State Processor API. Every parallel instance holds the same library,
 * so entries are de-duplicated by feedback id; tombstones are left out; each question is masked with its database's
 * schema like a built library's.
 */
final class LiveLibraryExport {
    static final String LIVE_LIBRARY_UID = "live-library";

    private LiveLibraryExport() {}

    static List<FewShotExample> read(Path savepoint, List<Path> databaseRoots) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.setParallelism(1);
        SavepointReader reader = SavepointReader.read(env, savepoint.toUri().toString(), new HashMapStateBackend());
        Map<String, LiveEntry> byId = new TreeMap<>();
        try (CloseableIterator<Tuple2<String, LiveEntry>> it = reader.readBroadcastState(
                OperatorIdentifier.forUid(LIVE_LIBRARY_UID), LiveLibraryFunction.STATE.getName(), Types.STRING,
                org.apache.flink.api.common.typeinfo.TypeInformation.of(LiveEntry.class)).executeAndCollect("export the live library")) {
            it.forEachRemaining(t -> byId.put(t.f0, t.f1));
        }
        SqliteSchemaCatalog catalog = new SqliteSchemaCatalog(new DatabaseLocator(databaseRoots, List.of()));
        List<String[]> items = new ArrayList<>();
        byId.values().stream().filter(LiveEntry::isExample)
                .sorted(Comparator.<LiveEntry>comparingLong(e -> e.timestampMillis).thenComparing(e -> e.feedbackId))
                .forEach(e -> items.add(new String[] {"feedback:" + e.feedbackId, e.dbId, e.question, e.sql}));
        return ExampleLibrary.build(items, catalog);
    }
}

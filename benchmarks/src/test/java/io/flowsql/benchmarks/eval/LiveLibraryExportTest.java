package io.flowsql.benchmarks.eval;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.opensearch.fewshot.ExampleLibrary;
import io.flowsql.agents.opensearch.fewshot.FewShotExample;
import io.flowsql.feedback.LiveEntry;
import io.flowsql.flink.LiveLibraryFunction;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.state.api.OperatorIdentifier;
import org.apache.flink.state.api.OperatorTransformation;
import org.apache.flink.state.api.SavepointWriter;
import org.apache.flink.state.api.functions.BroadcastStateBootstrapFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code fewshot-library --from-savepoint} reads the {@code live-library} broadcast state of a savepoint (written here
 * with the State Processor API under the job's uid and state name) and writes its examples, not its tombstones.
 */
class LiveLibraryExportTest {

    static LiveEntry entry(String id, String kind, String question, String sql, long at) {
        LiveEntry e = new LiveEntry();
        e.feedbackId = id;
        e.kind = kind;
        e.dbId = "concert_singer";
        e.question = question;
        e.sql = sql;
        e.timestampMillis = at;
        return e;
    }

    /** Puts each entry into the broadcast state under its feedback id, as the job does. */
    static final class Bootstrap extends BroadcastStateBootstrapFunction<LiveEntry> {
        @Override
        public void processElement(LiveEntry value, Context ctx) throws Exception {
            ctx.getBroadcastState(LiveLibraryFunction.STATE).put(value.feedbackId, value);
        }
    }

    @Test
    void exportsTheExamplesOfASavepointsLiveLibrary(@TempDir Path dir) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.setParallelism(1);
        Path savepoint = dir.resolve("savepoint");
        SavepointWriter.newSavepoint(env, new HashMapStateBackend(), 128)
                .withOperator(OperatorIdentifier.forUid(LiveLibraryExport.LIVE_LIBRARY_UID), OperatorTransformation
                        .bootstrapWith(env.fromData(
                                entry("fb-2", LiveEntry.EXAMPLE, "List the stadium names.", "SELECT name FROM stadium", 2),
                                entry("fb-1", LiveEntry.CORRECTION, "How many singers are there?", "SELECT count(*) FROM singer", 1),
                                entry("fb-3", LiveEntry.TOMBSTONE, null, null, 3)))
                        .transform(new Bootstrap()))
                .write(savepoint.toUri().toString());
        env.execute("write a savepoint");

        Path out = dir.resolve("live.jsonl");
        int code = new CommandLine(new EvalCli()).execute("fewshot-library", "--from-savepoint", savepoint.toString(),
                "--database-root", SharedData.root().resolve("spider/database").toString(), "--out", out.toString());
        assertThat(code).isZero();
        List<FewShotExample> examples = ExampleLibrary.load(out).examples();
        assertThat(examples).extracting(FewShotExample::id).containsExactly("feedback:fb-1", "feedback:fb-2");
        assertThat(examples.get(0).maskedQuestion()).isEqualTo("how many <schema> are there");
    }
}

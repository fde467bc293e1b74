package io.flowsql.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.QuestionEvent;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.JDBC;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Slow SQL does not delay checkpoints: on a real broker and MiniCluster, with checkpoints every 500 ms, the simulated
 * model answers a mag-sql question with a heavy (read-only, one-statement) cross join on a SQLite database made
 * for the test, sized so one run takes about {@value #SLOW_MILLIS} ms here, and a second question with a quick one.
 * The heavy statement runs twice: inside the {@code magsql.generate} stage (its refiner executes each sub-SQL) and as
 * a candidate ({@code CandidateExecuteFunction}). Every checkpoint triggered while it runs completes in under a second
 * (a stage or candidate run holding the task thread would hold the barrier for the statement's whole duration), or,
 * when one takes longer, its barrier passed the operators that run the SQL within that second
 * ({@link #heldNowhereNearTheSql}); none fails, and both questions are answered with their SQL. (Under 1 s unless other processes overload the machine: see
 * {@link #checkpointLimitMillis}.)
 */
class SlowSqlCheckpointsITCase {
    private static final String DB = "slow_numbers";
    /** The mag-sql stage whose refiner executes each sub-SQL inside the stage. */
    private static final String MAGSQL_GENERATE = "magsql.generate";
    private static final long SLOW_MILLIS = 10_000;
    /** The bound on a checkpoint's duration while slow SQL runs. */
    private static final long CHECKPOINT_LIMIT_MILLIS = 1_000;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster(checkpointHistory());

    private static Configuration checkpointHistory() {
        Configuration conf = new Configuration();
        conf.setString("web.checkpoints.history", "1000");
        return conf;
    }

    @Test
    void checkpointsStayShortWhileStagesAndCandidatesRunSlowSql(@TempDir Path dir) throws Exception {
        long checkpointLimit = checkpointLimitMillis();
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        Path databases = dir.resolve("databases");
        writeNumbers(databases.resolve(DB).resolve(DB + ".sqlite"), 1000);
        String slowSql = calibratedSlowSql(databases);
        QuestionEvent slow = new QuestionEvent("slow", "slow", DB, "How many triples of numbers sum to three more than a multiple of seven?");
        QuestionEvent quick = new QuestionEvent("quick", "quick", DB, "How many numbers are there?");
        List<QuestionEvent> questions = List.of(slow, quick);
        Map<String, String> sqlById = Map.of(slow.requestId, slowSql, quick.requestId, "SELECT count(*) FROM numbers");
        Path gold = dir.resolve("gold.json");
        new ObjectMapper().writeValue(gold.toFile(), questions.stream()
                .map(q -> Map.of("db_id", DB, "question", q.question, "query", sqlById.get(q.requestId))).toList());

        try (SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder().port(0)
                .responders(AgentResponders.all()).oracle(GoldSqlOracle.load(gold)).build())) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(
                    JobOptions.STRATEGY.key(), "mag-sql",
                    JobOptions.DATABASE_ROOTS.key(), databases.toString(),
                    JobOptions.CHECKPOINT_INTERVAL.key(), "500ms",
                    // far above the statement's duration on a loaded machine: only the statement itself ends it
                    JobOptions.QUERY_TIMEOUT.key(), "120s",
                    JobOptions.EXECUTION_TIMEOUT.key(), "150s",
                    JobOptions.GATHER_TIMEOUT.key(), "180s"));
            try (JobCluster.RunningJob job = JobCluster.start("slow-sql-checkpoints", config)) {
                long sent = System.currentTimeMillis();
                topics.sendQuestions(questions);
                List<AnswerEvent> answers = topics.committedAnswers(questions.size(), Duration.ofSeconds(240), Duration.ZERO);
                long answered = System.currentTimeMillis();
                List<JobCluster.Checkpoint> during = JobCluster.checkpoints(FLINK, job.id()).stream()
                        .filter(c -> c.triggeredAtMillis() >= sent && c.triggeredAtMillis() <= answered).toList();

                assertThat(during).as("checkpoints triggered while the slow SQL ran").hasSizeGreaterThanOrEqualTo(10)
                        .allSatisfy(c -> assertThat(c.status()).as("checkpoint " + c.id()).isIn("COMPLETED", "IN_PROGRESS"));
                List<Long> durations = during.stream().filter(JobCluster.Checkpoint::completed)
                        .map(JobCluster.Checkpoint::durationMillis).sorted().toList();
                assertThat(durations).as("completed checkpoint durations (ms)").hasSizeGreaterThanOrEqualTo(10);
                for (JobCluster.Checkpoint c : during) {
                    if (c.completed() && c.durationMillis() >= checkpointLimit) {
                        heldNowhereNearTheSql(c, JobCluster.checkpointBreakdown(FLINK, job.id(), c.id()), checkpointLimit);
                    }
                }
                assertThat(answers).as("both questions are answered").hasSize(2).allSatisfy(a -> {
                    assertThat(a.status).as(a.requestId + ": " + a.error).isEqualTo("answered");
                    assertThat(a.sql).isEqualTo(sqlById.get(a.requestId));
                });
                AnswerEvent slowAnswer = answers.stream().filter(a -> a.requestId.equals(slow.requestId)).findFirst().orElseThrow();
                assertThat(latency(slowAnswer, MAGSQL_GENERATE)).as("the stage ran the slow SQL itself")
                        .isGreaterThanOrEqualTo(SLOW_MILLIS / 2);
                assertThat(candidateMillis(slowAnswer, slowSql)).as("the candidate run ran the slow SQL")
                        .isGreaterThanOrEqualTo(SLOW_MILLIS / 2);
                System.out.printf("slow SQL: magsql.generate %d ms, candidate run %d ms; %d checkpoints in %.1f s, "
                                + "duration median %d ms, max %d ms (limit %d ms)%n",
                        latency(slowAnswer, MAGSQL_GENERATE), candidateMillis(slowAnswer, slowSql),
                        durations.size(), (answered - sent) / 1e3, durations.get(durations.size() / 2),
                        durations.get(durations.size() - 1), checkpointLimit);
            }
        }
    }

    /**
     * A checkpoint over the limit (printed operator by operator) passes only if the operators that run the slow SQL
     * (the chain ending in {@code magsql.generate} and the candidate run, and the gather after it) processed its
     * barrier within the limit: a stage or candidate run holding a task thread shows there as a start delay of about
     * the statement's remaining time. The snapshot's synchronous and asynchronous parts are not counted: in a CI run
     * here (load 10.8 on 2 cores) one checkpoint took 3.3 s because those parts took about 3 s in nearly every
     * operator at once, the idle chains of other presets and the dead-letter sink too, while every barrier was
     * processed within 110 ms except at the answers' sink, downstream of them: the process stalled, no task thread
     * was held.
     */
    private static void heldNowhereNearTheSql(JobCluster.Checkpoint checkpoint, List<JobCluster.OperatorCheckpoint> operators,
                                              long limit) {
        System.out.printf("slow SQL: checkpoint %d took %d ms (limit %d ms), by operator:%n", checkpoint.id(),
                checkpoint.durationMillis(), limit);
        operators.forEach(o -> System.out.println("  " + o.line()));
        List<JobCluster.OperatorCheckpoint> runningSql = operators.stream()
                .filter(o -> o.name().contains(MAGSQL_GENERATE) || o.name().contains("mag-sql: candidates.execute")).toList();
        assertThat(runningSql).as("the operators that run the slow SQL").isNotEmpty();
        assertThat(runningSql).as("checkpoint " + checkpoint.id() + " (" + checkpoint.durationMillis()
                + " ms): barrier processed at the operators running the SQL").allSatisfy(o ->
                assertThat(o.barrierProcessedAfter()).as(o.line()).isLessThan(limit));
    }

    /**
     * {@value #CHECKPOINT_LIMIT_MILLIS} ms, as the issue asks, on a machine that other processes do not overload (load
     * average at most its cores, as on CI); on an overloaded one (this machine is shared) every checkpoint is slower,
     * so the bound grows with the overload, but never past a quarter of the statement's duration: a barrier held
     * behind the statement would wait for most of it (about {@value #SLOW_MILLIS} ms).
     */
    private static long checkpointLimitMillis() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        double overload = Math.max(1, load / Runtime.getRuntime().availableProcessors());
        long limit = Math.min(SLOW_MILLIS / 4, Math.round(CHECKPOINT_LIMIT_MILLIS * overload));
        System.out.printf("slow SQL: load average %.1f before the job: checkpoint limit %d ms%n", load, limit);
        return limit;
    }

    /** A table {@code numbers(n)} holding 1..rows. */
    private static void writeNumbers(Path file, int rows) throws Exception {
        Files.createDirectories(file.getParent());
        try (Connection c = JDBC.createConnection("jdbc:sqlite:" + file, new Properties());
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE numbers (n INTEGER PRIMARY KEY)");
            s.execute("INSERT INTO numbers (n) WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < "
                    + rows + ") SELECT i FROM r");
        }
    }

    /**
     * The cross join, with as many rows of its outer side as take about {@link #SLOW_MILLIS} on this machine now (timed
     * on a small outer side through the job's own executor, which also shows that the SQL guard accepts it).
     */
    private static String calibratedSlowSql(Path databases) {
        int probe = 8;
        try (SqliteSafeExecutor executor = new SqliteSafeExecutor(new DatabaseLocator(List.of(databases), List.of()),
                SqlExecutorConfig.defaults().withTimeoutMillis(60_000))) {
            executor.execute(DB, slowSql(probe)); // a cold first run (pages, JIT) overstates the time per row
            ExecutionResult timed = executor.execute(DB, slowSql(probe));
            assertThat(timed.ok()).as("the guard and SQLite accept the slow SQL: " + timed.error()).isTrue();
            long probeMillis = Math.max(1, timed.elapsedMicros() / 1_000);
            int outer = (int) Math.max(probe, Math.min(1000, probe * SLOW_MILLIS / probeMillis));
            System.out.printf("slow SQL: %d outer rows took %d ms; %d outer rows for ~%d ms%n", probe, probeMillis, outer, SLOW_MILLIS);
            return slowSql(outer);
        }
    }

    private static String slowSql(int outerRows) {
        return "SELECT count(*) FROM numbers AS a CROSS JOIN numbers AS b CROSS JOIN numbers AS c WHERE a.n <= "
                + outerRows + " AND (a.n + b.n + c.n) % 7 = 3";
    }

    /** How long the candidate run of {@code sql} took, as the executor measured it. */
    private static long candidateMillis(AnswerEvent answer, String sql) {
        return answer.candidates.stream().filter(c -> sql.equals(c.sql)).mapToLong(c -> c.elapsedMicros / 1_000).max().orElse(-1);
    }

    private static long latency(AnswerEvent answer, String stage) {
        return answer.trace.stream().filter(t -> stage.equals(t.stage)).mapToLong(t -> t.latencyMs).max().orElse(-1);
    }
}

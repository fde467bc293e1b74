package io.flowsql.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.events.AnswerEvent;
import io.flowsql.job.topology.TopologyConfig;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;

/**
 * The Flink side the job ITCases share: a MiniCluster of one TaskManager (two slots, the parallelism
 * {@link JobTopics#jobConfig} sets, unless a test runs more than one job at once), the production job started on it
 * from a {@link JobConfig} with the seams a test may need (topology settings, a step before the answers sink, a
 * restart strategy; closing it cancels the job), and the job's checkpoint statistics as Flink's REST API reports them.
 */
final class JobCluster {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JobCluster() {}

    /** One TaskManager, two slots. */
    static MiniClusterExtension miniCluster() {
        return miniCluster(new Configuration());
    }

    /** One TaskManager, two slots, with {@code configuration} added to the cluster's. */
    static MiniClusterExtension miniCluster(Configuration configuration) {
        return miniCluster(configuration, 2);
    }

    /** One TaskManager with {@code slots} slots. */
    static MiniClusterExtension miniCluster(int slots) {
        return miniCluster(new Configuration(), slots);
    }

    /** One TaskManager with {@code slots} slots, with {@code configuration} added to the cluster's. */
    static MiniClusterExtension miniCluster(Configuration configuration, int slots) {
        return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setConfiguration(configuration).setNumberTaskManagers(1).setNumberSlotsPerTaskManager(slots).build());
    }

    /** The production job (Kafka sources and sinks of {@code config}) running on the test's cluster. */
    static RunningJob start(String name, JobConfig config) throws Exception {
        return job(config).start(name);
    }

    /** The job with the given topology settings (e.g. timeouts a test changed after start-up validation). */
    static RunningJob start(String name, JobConfig config, TopologyConfig topology) throws Exception {
        return job(config).topology(topology).start(name);
    }

    /** The production job of {@code config}, to start once the test has set its seams. */
    static JobStart job(JobConfig config) {
        return new JobStart(config);
    }

    /**
     * A job about to start: {@link FlowSqlJob#configure}, then the test's Flink settings, then {@link FlowSqlJob#build}
     * with the Kafka sources and sinks of its config, the topology settings and the step before the answers sink.
     */
    static final class JobStart {
        private final JobConfig config;
        private final Configuration flink = new Configuration();
        private TopologyConfig topology;
        private UnaryOperator<DataStream<AnswerEvent>> beforeAnswersSink = UnaryOperator.identity();

        private JobStart(JobConfig config) {
            this.config = config;
            this.topology = EngineWiring.topologyConfig(config);
        }

        /** Topology settings of the test's own (default: those of the config). */
        JobStart topology(TopologyConfig topology) {
            this.topology = topology;
            return this;
        }

        /** A step the answers pass through between the answer operator and their sink (e.g. an injected failure). */
        JobStart beforeAnswersSink(UnaryOperator<DataStream<AnswerEvent>> step) {
            this.beforeAnswersSink = step;
            return this;
        }

        /** Fixed-delay restarts (5 attempts, 500 ms apart), for jobs whose tests kill tasks. */
        JobStart restartOnFailure() {
            return restartOnFailure(5);
        }

        /** Fixed-delay restarts ({@code attempts}, 500 ms apart), for tests that inject several faults. */
        JobStart restartOnFailure(int attempts) {
            flink.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, attempts);
            flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(500));
            return this;
        }

        /** No restarts: any failure that reaches Flink ends the job. */
        JobStart noRestarts() {
            flink.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
            return this;
        }

        /** Submits the job under {@code name}; returns once it was submitted. */
        RunningJob start(String name) throws Exception {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            FlowSqlJob.configure(env, config);
            if (!flink.keySet().isEmpty()) {
                env.configure(flink);
            }
            FlowSqlJob.build(env, JobSources.kafka(config), JobSinks.kafka(config), config, topology, beforeAnswersSink);
            return new RunningJob(env.executeAsync(name));
        }
    }

    /**
     * A started job; closing it cancels it and waits until its tasks are done (at most {@link #CANCELLED_WITHIN}): the
     * cancel is acknowledged before they are, and a Kafka source still closing when the class's broker stops waits 30 s
     * for its fetcher (source.reader.close.timeout), which held KnowledgeITCase's fork after its last test.
     */
    record RunningJob(JobClient client) implements AutoCloseable {
        static final Duration CANCELLED_WITHIN = Duration.ofSeconds(60);

        JobID id() {
            return client.getJobID();
        }

        @Override
        public void close() throws Exception {
            client.cancel().get();
            try {
                client.getJobExecutionResult().get(CANCELLED_WITHIN.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException cancelled) {
                // a cancelled job's result is a failure (JobCancellationException): the end that was waited for
            } catch (TimeoutException slow) {
                System.out.printf("job %s still cancelling after %d s%n", id(), CANCELLED_WITHIN.toSeconds());
            }
        }
    }

    /** One checkpoint as the REST API's history lists it (duration 0 until it completes). */
    record Checkpoint(long id, String status, long triggeredAtMillis, long durationMillis) {
        boolean completed() {
            return "COMPLETED".equals(status);
        }
    }

    /**
     * The job's checkpoint history from {@code GET /jobs/<id>/checkpoints}, oldest first; only as many as the
     * cluster's {@code web.checkpoints.history} keeps.
     */
    static List<Checkpoint> checkpoints(MiniClusterExtension cluster, JobID job) throws Exception {
        List<Checkpoint> history = new ArrayList<>();
        for (JsonNode c : checkpointStatistics(cluster, job).path("history")) {
            history.add(0, new Checkpoint(c.path("id").asLong(), c.path("status").asText(),
                    c.path("trigger_timestamp").asLong(), c.path("end_to_end_duration").asLong()));
        }
        return history;
    }

    /** One operator's (vertex's) part of a checkpoint, the largest over its subtasks, in ms. */
    record OperatorCheckpoint(String name, long startDelay, long alignment, long sync, long async, long endToEnd) {
        /**
         * How long after the trigger this operator processed the barrier (its start delay and alignment): what a task
         * thread busy with something else holds back; the snapshot's own parts are not in it.
         */
        long barrierProcessedAfter() {
            return startDelay + alignment;
        }

        String line() {
            return String.format("start delay %d ms, alignment %d ms, sync %d ms, async %d ms, end to end %d ms: %s",
                    startDelay, alignment, sync, async, endToEnd, name);
        }
    }

    /**
     * Where one checkpoint's time went, per operator (vertex) in the job's order: start delay (trigger to the barrier
     * being processed), alignment, synchronous and asynchronous part, end to end, from
     * {@code GET /jobs/<id>/checkpoints/details/<checkpoint>/subtasks/<vertex>}.
     */
    static List<OperatorCheckpoint> checkpointBreakdown(MiniClusterExtension cluster, JobID job, long checkpoint) throws Exception {
        List<OperatorCheckpoint> operators = new ArrayList<>();
        for (JsonNode vertex : rest(cluster, "/jobs/" + job).path("vertices")) {
            JsonNode subtasks = rest(cluster, "/jobs/" + job + "/checkpoints/details/" + checkpoint + "/subtasks/"
                    + vertex.path("id").asText()).path("subtasks");
            long delay = 0;
            long alignment = 0;
            long sync = 0;
            long async = 0;
            long endToEnd = 0;
            for (JsonNode subtask : subtasks) {
                delay = Math.max(delay, subtask.path("start_delay").asLong());
                alignment = Math.max(alignment, subtask.path("alignment").path("duration").asLong());
                sync = Math.max(sync, subtask.path("checkpoint").path("sync").asLong());
                async = Math.max(async, subtask.path("checkpoint").path("async").asLong());
                endToEnd = Math.max(endToEnd, subtask.path("end_to_end_duration").asLong());
            }
            operators.add(new OperatorCheckpoint(vertex.path("name").asText(), delay, alignment, sync, async, endToEnd));
        }
        return operators;
    }

    /** How many checkpoints of the job completed so far (all of them, not only the history's). */
    static long completedCheckpoints(MiniClusterExtension cluster, JobID job) throws Exception {
        return checkpointStatistics(cluster, job).path("counts").path("completed").asLong();
    }

    private static JsonNode checkpointStatistics(MiniClusterExtension cluster, JobID job) throws Exception {
        return rest(cluster, "/jobs/" + job + "/checkpoints");
    }

    private static JsonNode rest(MiniClusterExtension cluster, String path) throws Exception {
        Configuration client = cluster.getClientConfiguration();
        URI uri = URI.create("http://" + client.get(RestOptions.ADDRESS) + ":" + client.get(RestOptions.PORT) + path);
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(uri + " answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }
}

package io.flowsql.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.job.topology.TopologyConfig;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The Flink side the job ITCases share: a MiniCluster of one TaskManager with two slots (the parallelism
 * {@link JobTopics#jobConfig} sets), the production job started on it from a {@link JobConfig} (closing it cancels
 * the job), and the job's checkpoint statistics as Flink's REST API reports them.
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
        return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setConfiguration(configuration).setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());
    }

    /** The production job (Kafka sources and sinks of {@code config}) running on the test's cluster. */
    static RunningJob start(String name, JobConfig config) throws Exception {
        return start(name, config, TopologyConfig.from(config));
    }

    /** The job with the given topology settings (e.g. timeouts a test changed after start-up validation). */
    static RunningJob start(String name, JobConfig config, TopologyConfig topology) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        FlowSqlJob.configure(env, config);
        FlowSqlJob.build(env, JobSources.kafka(config), JobSinks.kafka(config), config, topology, UnaryOperator.identity());
        return new RunningJob(env.executeAsync(name));
    }

    /** A started job; closing it cancels it and waits for the cancellation. */
    record RunningJob(JobClient client) implements AutoCloseable {
        JobID id() {
            return client.getJobID();
        }

        @Override
        public void close() throws Exception {
            client.cancel().get();
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
        Configuration client = cluster.getClientConfiguration();
        URI uri = URI.create("http://" + client.get(RestOptions.ADDRESS) + ":" + client.get(RestOptions.PORT)
                + "/jobs/" + job + "/checkpoints");
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(uri + " answered " + response.statusCode() + ": " + response.body());
        }
        List<Checkpoint> history = new ArrayList<>();
        for (JsonNode c : JSON.readTree(response.body()).path("history")) {
            history.add(0, new Checkpoint(c.path("id").asLong(), c.path("status").asText(),
                    c.path("trigger_timestamp").asLong(), c.path("end_to_end_duration").asLong()));
        }
        return history;
    }
}

package io.flowsql.benchmarks.learning;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.events.EventJson;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** A running job's checkpoints as Flink's REST API reports them: the latest completed one, and one operator's share. */
final class CheckpointStats {
    private final HttpClient http = HttpClient.newHttpClient();
    private final String base;

    CheckpointStats(int restPort, String jobId) {
        this.base = "http://127.0.0.1:" + restPort + "/jobs/" + jobId;
    }

    /** The latest completed checkpoint: id, full size in bytes, end-to-end duration in ms; null before the first. */
    Completed latest() throws Exception {
        JsonNode latest = get("/checkpoints").path("latest").path("completed");
        if (latest.isMissingNode() || latest.isNull()) {
            return null;
        }
        return new Completed(latest.path("id").asLong(), latest.path("checkpointed_size").asLong(latest.path("state_size").asLong()),
                latest.path("state_size").asLong(), latest.path("end_to_end_duration").asLong());
    }

    /** The state size (bytes) of the vertex whose name contains {@code vertexName} in checkpoint {@code id}. */
    long vertexStateSize(long id, String vertexName) throws Exception {
        String vertex = null;
        for (JsonNode v : get("").path("vertices")) {
            if (v.path("name").asText().contains(vertexName)) {
                vertex = v.path("id").asText();
            }
        }
        if (vertex == null) {
            return -1;
        }
        for (int attempt = 0; attempt < 5; attempt++) {
            JsonNode task = get("/checkpoints/details/" + id).path("tasks").path(vertex);
            if (!task.isMissingNode()) {
                return task.path("state_size").asLong(task.path("checkpointed_size").asLong(-1));
            }
            Thread.sleep(200); // the statistics of a checkpoint that just completed may not be listed yet
        }
        return -1;
    }

    record Completed(long id, long checkpointedSize, long stateSize, long durationMillis) {}

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString());
        return EventJson.mapper().readTree(r.body());
    }
}

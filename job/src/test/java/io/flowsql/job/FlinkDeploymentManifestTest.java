package io.flowsql.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * deploy/kubernetes/flowsql-flinkdeployment.yaml against the FlinkDeployment CRD schema the Flink Kubernetes Operator
 * publishes in its API jar (1.10.0, the newest Maven Central serves here), checked as strictly as
 * {@code kubectl --validate=strict}: a field the schema does not know is an error, as are wrong types and values.
 * The one expected error is flinkVersion v2_2, which that release's list (ending at v1_20) predates. Then what the
 * production notes promise: application mode with the job's jar and main class, savepoint upgrades, Kubernetes HA,
 * and checkpoints and savepoints in durable storage, never the JobManager's memory.
 */
class FlinkDeploymentManifestTest {
    private static final String CRD = "META-INF/fabric8/flinkdeployments.flink.apache.org-v1.yml";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void theManifestIsAValidFlinkDeploymentApartFromTheFlinkVersionThatSchemaPredates() throws Exception {
        JsonNode manifest = manifest();
        JsonNode crd;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(CRD)) {
            assertThat(in).as(CRD + " from flink-kubernetes-operator-api").isNotNull();
            crd = YAML.readTree(in);
        }
        JsonNode version = null;
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (v.path("name").asText().equals(manifest.path("apiVersion").asText().replace("flink.apache.org/", ""))) {
                version = v;
            }
        }
        assertThat(version).as("the CRD serves the manifest's apiVersion " + manifest.path("apiVersion").asText()).isNotNull();
        ObjectNode schema = version.path("schema").path("openAPIV3Schema").deepCopy();
        // apiVersion, kind and metadata are Kubernetes' own, not in the CRD's schema: strict below its root only.
        schema.path("properties").forEach(FlinkDeploymentManifestTest::strict);
        JsonSchema validator = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4).getSchema(schema);

        Set<ValidationMessage> errors = validator.validate(manifest);
        assertThat(errors).extracting(ValidationMessage::getMessage).as("every error but flinkVersion's")
                .allMatch(m -> m.contains("flinkVersion"));
        assertThat(errors).extracting(ValidationMessage::getMessage).as("flinkVersion v2_2 is not in the 1.10.0 list")
                .hasSize(1).allMatch(m -> m.contains("enum"));

        ObjectNode misspelt = manifest.deepCopy();
        ((ObjectNode) misspelt.path("spec").path("job")).put("upgradeMod", "savepoint");
        assertThat(validator.validate(misspelt)).as("the check would see a misspelt field").hasSize(2);
    }

    @Test
    void theManifestRunsTheJobInApplicationModeWithDurableStateAndHighAvailability() throws Exception {
        JsonNode spec = manifest().path("spec");
        JsonNode job = spec.path("job");
        assertThat(job.path("jarURI").asText()).startsWith("local:///opt/flink/usrlib/");
        assertThat(job.path("entryClass").asText()).isEqualTo(FlowSqlJob.class.getName());
        assertThat(job.path("upgradeMode").asText()).isEqualTo("savepoint");
        Map<String, String> flink = YAML.convertValue(spec.path("flinkConfiguration"), Map.class);
        assertThat(flink).containsEntry("high-availability.type", "kubernetes");
        for (String key : List.of("execution.checkpointing.dir", "execution.checkpointing.savepoint-dir", "high-availability.storageDir")) {
            assertThat(flink.get(key)).as(key).matches("(s3|s3a|gs|abfss|hdfs)://.+");
        }
        assertThat(flink).doesNotContainEntry("execution.checkpointing.storage", "jobmanager");

        List<String> args = new ArrayList<>();
        job.path("args").forEach(a -> args.add(a.asText()));
        Map<String, String> options = new java.util.TreeMap<>();
        for (int i = 0; i + 1 < args.size(); i += 2) {
            if (args.get(i).equals("-D")) {
                String[] kv = args.get(i + 1).split("=", 2);
                options.put(kv[0], kv[1]);
            }
        }
        JobConfig config = JobConfig.of(options);
        assertThat(config.kafkaClientProperties()).containsEntry("security.protocol", "SASL_SSL");
        assertThat(options).as("secrets come from the mounted -c file, never the arguments")
                .doesNotContainKeys(JobOptions.LLM_API_KEY.key(), "kafka.client.sasl.jaas.config");
    }

    private static JsonNode manifest() throws Exception {
        return YAML.readTree(Path.of(System.getProperty("flowsql.project.dir"), "deploy", "kubernetes",
                "flowsql-flinkdeployment.yaml").toFile());
    }

    /**
     * Makes the schema refuse fields it does not declare, as kubectl's strict validation does, except where it
     * declares free-form content (x-kubernetes-preserve-unknown-fields, additionalProperties).
     */
    private static void strict(JsonNode node) {
        if (node.isObject()) {
            ObjectNode object = (ObjectNode) node;
            if (object.has("properties") && !object.has("additionalProperties")
                    && !object.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
                object.put("additionalProperties", false);
            }
        }
        node.forEach(FlinkDeploymentManifestTest::strict);
    }
}

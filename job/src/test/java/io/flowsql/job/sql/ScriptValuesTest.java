package io.flowsql.job.sql;

import io.flowsql.job.JobConfig;
import io.flowsql.job.JobOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScriptValuesTest {
    @Test
    void jobParametersSurviveFlinksMapParsingWithColonsCommasAndQuotes() {
        Map<String, String> explicit = new LinkedHashMap<>();
        explicit.put("llm.base-url", "http://127.0.0.1:8000/v1");
        explicit.put("job.presets", "opensearch,mag-sql");
        explicit.put("data.shared", "/data/it's \"here\"");
        Configuration conf = new Configuration();
        conf.setString(PipelineOptions.GLOBAL_JOB_PARAMETERS.key(), ScriptValues.jobParameters(explicit));
        assertThat(conf.get(PipelineOptions.GLOBAL_JOB_PARAMETERS)).isEqualTo(explicit);
    }

    @Test
    void theBundledScriptIsFilledFromTheOptionsAndItsSetValueReadsBackAsTheJobParameters() {
        JobConfig config = JobConfig.of(Map.of(JobOptions.LLM_BASE_URL.key(), "http://127.0.0.1:9/v1",
                JobOptions.QUESTIONS_TOPIC.key(), "q-topic", JobOptions.SQL_FUNCTION_TIMEOUT.key(), "90s"));
        SqlScript script = FlowSqlScript.bundledFor(config);
        assertThat(script.text()).doesNotContain("${").contains("'topic' = 'q-topic'")
                .contains("'table.exec.async-table.timeout' = '150000 ms'");
        String set = script.statements().stream().filter(s -> s.contains("pipeline.global-job-parameters")).findFirst().orElseThrow();
        String literal = set.substring(set.indexOf("= '") + 3, set.length() - 1).replace("''", "'");
        Configuration conf = new Configuration();
        conf.setString(PipelineOptions.GLOBAL_JOB_PARAMETERS.key(), literal);
        Map<String, String> expected = new TreeMap<>(config.explicitValues());
        expected.put(FunctionConfig.OPTION_KEYS, String.join(",", config.explicitValues().keySet()));
        assertThat(conf.get(PipelineOptions.GLOBAL_JOB_PARAMETERS)).isEqualTo(expected);
        assertThat(FunctionConfig.from(conf.get(PipelineOptions.GLOBAL_JOB_PARAMETERS)::get).explicitValues())
                .isEqualTo(config.explicitValues());
    }

    @Test
    void declaredDatabasesAndTenantsReachTheFunctionsThroughTheListOfKeys() {
        JobConfig config = JobConfig.of(Map.of(
                "databases.sales.url", "jdbc:postgresql://127.0.0.1:5432/sales",
                "databases.sales.password-env", "SALES_DB_PASSWORD",
                "tenants.team-a.databases", "sales",
                JobOptions.LLM_API_KEY_FILE.key(), "/run/secrets/llm-key"));
        Map<String, String> parameters = ScriptValues.functionParameters(config);
        JobConfig seen = FunctionConfig.from(parameters::get);
        assertThat(seen.explicitValues()).isEqualTo(config.explicitValues())
                .containsEntry("databases.sales.password-env", "SALES_DB_PASSWORD")
                .containsEntry("tenants.team-a.databases", "sales");
        assertThat(seen.get(JobOptions.TENANTS)).isEqualTo(config.get(JobOptions.TENANTS));
        assertThat(seen.get(JobOptions.DATABASES)).isEqualTo(config.get(JobOptions.DATABASES));
    }

    /** One member of each option family, with a value the job accepts. */
    private static final Map<String, String> FAMILY_MEMBERS = Map.of(
            "llm.model.opensearch.generate", "m-generate",
            "llm.embedding-model.opensearch.retrieve.columns", "m-columns",
            "llm.max-tokens.opensearch.generate", "321",
            "llm.stage.opensearch.generate.temperature", "0.5",
            "stage.capacity.opensearch.generate", "7",
            "stage.timeout.opensearch.generate", "7 min",
            "kafka.client.client.id", "flowsql-sql",
            "databases.sales.url", "jdbc:postgresql://127.0.0.1:5432/sales",
            "tenants.team-a.databases", "sales");

    @Test
    void everyOptionOfEveryRoomThatReachesTheJobReachesTheSqlFunctions() {
        Map<String, String> given = new TreeMap<>(FAMILY_MEMBERS);
        for (org.apache.flink.configuration.ConfigOption<?> option : JobOptions.all()) {
            given.put(option.key(), asText(option));
        }
        for (io.flowsql.config.OptionFamily<?> family : JobOptions.families()) {
            assertThat(FAMILY_MEMBERS.keySet()).as("a member of %s is tried", family.prefix()).anyMatch(family::contains);
        }
        JobConfig job = JobConfig.of(given);
        String set = FlowSqlScript.bundledFor(job).statements().stream()
                .filter(s -> s.contains("pipeline.global-job-parameters")).findFirst().orElseThrow();
        Configuration conf = new Configuration();
        conf.setString(PipelineOptions.GLOBAL_JOB_PARAMETERS.key(), set.substring(set.indexOf("= '") + 3, set.length() - 1)
                .replace("''", "'"));
        JobConfig functions = FunctionConfig.from(conf.get(PipelineOptions.GLOBAL_JOB_PARAMETERS)::get);
        assertThat(functions.settings().values()).as("every key the job was given, as the functions read it")
                .isEqualTo(job.settings().values());
        for (org.apache.flink.configuration.ConfigOption<?> option : JobOptions.all()) {
            assertThat((Object) functions.get(option)).as(option.key()).isEqualTo(job.get(option));
        }
        for (io.flowsql.config.OptionFamily<?> family : JobOptions.families()) {
            assertThat((Object) functions.get(family)).as(family.prefix()).isEqualTo(job.get(family)).isNotEqualTo(Map.of());
        }
    }

    /** An option's default as the text a properties file would give. */
    @SuppressWarnings("unchecked")
    private static String asText(org.apache.flink.configuration.ConfigOption<?> option) {
        if (option.defaultValue() instanceof java.util.List<?> items) {
            return items.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(","));
        }
        Configuration conf = new Configuration();
        conf.set((org.apache.flink.configuration.ConfigOption<Object>) option, option.defaultValue());
        return conf.toMap().get(option.key());
    }

    @Test
    void aSecretOptionIsRefusedOnTheSqlPathWithoutShowingIt() {
        String key = "sk-never-shown-4711";
        JobConfig config = JobConfig.of(Map.of(JobOptions.LLM_API_KEY.key(), key));
        assertThatThrownBy(() -> ScriptValues.of(config))
                .hasMessageContaining(JobOptions.LLM_API_KEY.key())
                .hasMessageContaining(JobOptions.LLM_API_KEY_ENV.key())
                .hasMessageNotContaining(key);
        JobConfig byReference = JobConfig.of(Map.of(JobOptions.LLM_API_KEY_ENV.key(), "FLOWSQL_LLM_KEY"));
        assertThat(FlowSqlScript.bundledFor(byReference).text()).contains("FLOWSQL_LLM_KEY").doesNotContain(key);
    }

    @Test
    void theKafkaTablesGetTheClientPropertiesAndTheClientFileOnlyByReference(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = dir.resolve("kafka.properties");
        java.nio.file.Files.writeString(file, "sasl.jaas.config=ScramLoginModule required password=\"pw-4711\";\n");
        JobConfig config = JobConfig.of(Map.of("kafka.client.security.protocol", "SASL_SSL",
                JobOptions.KAFKA_CLIENT_FILE.key(), file.toString()));
        String script = FlowSqlScript.bundledFor(config).text();
        assertThat(script).doesNotContain("pw-4711")
                .contains("'properties.security.protocol' = 'SASL_SSL',")
                .contains("'properties.sasl.jaas.config' = '${flowsqlfile:" + file + ":sasl.jaas.config}',")
                .contains("'properties.config.providers.flowsqlfile.class' = 'org.apache.kafka.common.config.provider.FileConfigProvider',");
        // both Kafka tables (the questions read, the answers and dead letters written) carry them
        assertThat(script.split("'properties.security.protocol'", -1)).hasSize(3);
        assertThatThrownBy(() -> ScriptValues.of(JobConfig.of(Map.of("kafka.client.ssl.keystore.key", "-----BEGIN PRIVATE KEY-----"))))
                .hasMessageContaining("kafka.client.ssl.keystore.key").hasMessageContaining(JobOptions.KAFKA_CLIENT_FILE.key())
                .hasMessageNotContaining("PRIVATE KEY");
    }

    @Test
    void statementsSplitAtLineEndSemicolonsOutsideQuotesAndAPlaceholderWithoutValueIsAnError() {
        SqlScript script = new SqlScript("-- a comment; not a statement\nSET 'a' = 'x;\ny';\nSELECT 1;\n\nSELECT ${N}");
        assertThat(script.fill(Map.of("N", "2")).statements()).containsExactly("SET 'a' = 'x;\ny'", "SELECT 1", "SELECT 2");
        assertThatThrownBy(() -> script.fill(Map.of())).hasMessageContaining("${N}");
    }
}

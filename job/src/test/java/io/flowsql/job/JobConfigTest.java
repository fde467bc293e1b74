package io.flowsql.job;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JobConfigTest {

    @Test
    void defaultsComeFromTheOptions() {
        JobConfig config = JobConfig.defaults();
        assertThat(config.get(JobOptions.QUESTIONS_TOPIC)).isEqualTo("questions");
        assertThat(config.get(JobOptions.CHECKPOINT_INTERVAL)).isEqualTo(Duration.ofMillis(500));
        assertThat(config.get(JobOptions.DATABASE_ROOTS)).isEmpty();
    }

    @Test
    void commandLineOverridesTheFileWhichOverridesDefaults(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("job.properties");
        Files.writeString(file, """
                kafka.topic.answers = my-answers
                job.checkpoint-interval = 500ms
                stage.timeout.magsql.generate = 45s
                llm.request-timeout = 20s
                llm.total-budget = 40s
                llm.model.sqlfix.review = small-model
                data.database-roots = /a, /b
                """);
        JobConfig config = JobConfig.load(file, Map.of("job.checkpoint-interval", "3s"));
        assertThat(config.get(JobOptions.ANSWERS_TOPIC)).isEqualTo("my-answers");
        assertThat(config.get(JobOptions.CHECKPOINT_INTERVAL)).isEqualTo(Duration.ofSeconds(3));
        assertThat(config.durationFamily("stage.timeout.")).containsEntry("magsql.generate", Duration.ofSeconds(45));
        assertThat(config.family("llm.model.")).containsEntry("sqlfix.review", "small-model");
        assertThat(config.get(JobOptions.DATABASE_ROOTS)).containsExactly("/a", "/b");
    }

    @Test
    void unknownKeysAndBadValuesFailAtStart() {
        assertThatThrownBy(() -> JobConfig.of(Map.of("kafka.bootstrap.servers", "x")))
                .hasMessageContaining("unknown option 'kafka.bootstrap.servers'");
        assertThatThrownBy(() -> JobConfig.of(Map.of("job.parallelism", "two")))
                .hasMessageContaining("job.parallelism");
        assertThatThrownBy(() -> JobConfig.of(Map.of("kafka.starting-offsets", "yesterday")))
                .hasMessageContaining("kafka.starting-offsets");
    }

    @Test
    void theTransactionTimeoutMustExceedTheCheckpointInterval() {
        assertThatThrownBy(() -> JobConfig.of(Map.of("job.checkpoint-interval", "2min", "kafka.transaction-timeout", "1min")))
                .hasMessageContaining("kafka.transaction-timeout");
        assertThat(JobConfig.of(Map.of("job.checkpoint-interval", "2min", "kafka.transaction-timeout", "3min"))
                .get(JobOptions.TRANSACTION_TIMEOUT)).isEqualTo(Duration.ofMinutes(3));
    }

    @Test
    void theApiKeyIsNeverShown() {
        assertThat(JobConfig.of(Map.of("llm.api-key", "sk-secret")).explicitValues()).containsEntry("llm.api-key", "***");
    }

    @Test
    void kafkaClientPropertiesArePassedThroughWithoutThePrefixAndCredentialsAreMasked() {
        JobConfig config = JobConfig.of(Map.of(
                "kafka.client.security.protocol", "SASL_SSL",
                "kafka.client.sasl.mechanism", "SCRAM-SHA-512",
                "kafka.client.sasl.jaas.config", "ScramLoginModule required username=\"u\" password=\"p\";",
                "kafka.client.ssl.truststore.password", "changeit"));
        assertThat(config.kafkaClientProperties()).containsOnly(
                Map.entry("security.protocol", "SASL_SSL"), Map.entry("sasl.mechanism", "SCRAM-SHA-512"),
                Map.entry("sasl.jaas.config", "ScramLoginModule required username=\"u\" password=\"p\";"),
                Map.entry("ssl.truststore.password", "changeit"));
        assertThat(config.explicitValues()).containsEntry("kafka.client.security.protocol", "SASL_SSL")
                .containsEntry("kafka.client.sasl.jaas.config", "***").containsEntry("kafka.client.ssl.truststore.password", "***");
        assertThat(config.asArguments()).contains("-D", "kafka.client.ssl.truststore.password=changeit");
    }

    @Test
    void onlyOptionsKnownToBeSafeAreShownEverythingElseIsMasked() {
        String pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----";
        JobConfig config = JobConfig.of(Map.ofEntries(
                Map.entry("kafka.client.ssl.keystore.key", pem),
                Map.entry("kafka.client.ssl.keystore.certificate.chain", "-----BEGIN CERTIFICATE-----"),
                Map.entry("kafka.client.sasl.oauthbearer.client.credentials.client.secret", "s3"),
                Map.entry("kafka.client.ssl.truststore.location", "/etc/kafka/trust.p12"),
                Map.entry("kafka.client.request.timeout.ms", "20000"),
                Map.entry("kafka.client-file", "/run/secrets/kafka.properties"),
                Map.entry("databases.dw.url", "jdbc:postgresql://db:5432/dw?user=r&password=hunter2"),
                Map.entry("databases.dw.user", "reader"),
                Map.entry("databases.dw.password-file", "/run/secrets/dw"),
                Map.entry("databases.sales.url", "jdbc:postgresql://db:5432/sales"),
                Map.entry("llm.api-key", "sk-live"),
                Map.entry("llm.base-url", "http://127.0.0.1:1/v1")));
        Map<String, String> shown = config.explicitValues();
        assertThat(shown.toString()).doesNotContain("PRIVATE KEY", "CERTIFICATE", "s3", "hunter2", "sk-live");
        assertThat(shown).containsEntry("kafka.client.ssl.keystore.key", JobConfig.MASK)
                .containsEntry("kafka.client.ssl.keystore.certificate.chain", JobConfig.MASK)
                .containsEntry("databases.dw.url", JobConfig.MASK)
                .containsEntry("kafka.client.ssl.truststore.location", "/etc/kafka/trust.p12")
                .containsEntry("kafka.client.request.timeout.ms", "20000")
                .containsEntry("kafka.client-file", "/run/secrets/kafka.properties")
                .containsEntry("databases.dw.user", "reader")
                .containsEntry("databases.dw.password-file", "/run/secrets/dw")
                .containsEntry("databases.sales.url", "jdbc:postgresql://db:5432/sales")
                .containsEntry("llm.base-url", "http://127.0.0.1:1/v1");
        assertThat(config.maskedKeys()).containsExactlyInAnyOrder("kafka.client.ssl.keystore.key",
                "kafka.client.ssl.keystore.certificate.chain", "kafka.client.sasl.oauthbearer.client.credentials.client.secret",
                "databases.dw.url", "llm.api-key");
    }

    @Test
    void kafkaClientPropertiesTheJobSetsItselfAreRefused() {
        assertThatThrownBy(() -> JobConfig.of(Map.of("kafka.client.isolation.level", "read_uncommitted")))
                .hasMessageContaining("kafka.client.isolation.level").hasMessageContaining("read_committed");
        assertThatThrownBy(() -> JobConfig.of(Map.of("kafka.client.bootstrap.servers", "x:9092")))
                .hasMessageContaining("use kafka.bootstrap-servers");
        assertThatThrownBy(() -> JobConfig.of(Map.of("kafka.client.", "x"))).hasMessageContaining("unknown option");
    }

    @Test
    void aTenantRoleIsAnIdentifierOnADeclaredPostgresqlDatabase() {
        JobConfig pg = JobConfig.of(Map.of("databases.dw.url", "jdbc:postgresql://localhost:5432/dw",
                "tenants.a.databases", "dw", "tenants.a.roles.dw", "team_a"));
        assertThat(pg.get(JobOptions.TENANTS)).containsEntry("a.roles.dw", "team_a");
        assertThatThrownBy(() -> JobConfig.of(Map.of("databases.dw.url", "jdbc:postgresql://localhost:5432/dw",
                "tenants.a.databases", "dw", "tenants.a.roles.dw", "team-a; RESET ROLE")))
                .hasMessageContaining("tenants.a.roles.dw").hasMessageContaining("not a role name");
        assertThatThrownBy(() -> JobConfig.of(Map.of("tenants.a.databases", "concert_singer",
                "tenants.a.roles.concert_singer", "team_a")))
                .hasMessageContaining("tenants.<tenant>.roles.concert_singer").hasMessageContaining("PostgreSQL");
        assertThatThrownBy(() -> JobConfig.of(Map.of("databases.lake.url", "jdbc:duckdb:/tmp/lake.duckdb",
                "tenants.a.databases", "lake", "tenants.a.roles.lake", "team_a")))
                .hasMessageContaining("tenants.<tenant>.roles.lake");
    }

    @Test
    void valuesAreReadByFlinkInEveryFormatTheDocsUse() {
        JobConfig config = JobConfig.of(Map.of("job.checkpoint-interval", "750 ms", "stage.timeout", "PT7M",
                "llm.retry-window", "2min", "journal.retention", "3d", "data.database-roots", "/a;/b",
                "llm.cache-mode", "READ_ONLY", "llm.structured-output", "json-schema", "journal.release", "retain",
                "kafka.starting-offsets", "latest", "dialogue.feedback-isolation", "read_uncommitted"));
        assertThat(config.get(JobOptions.CHECKPOINT_INTERVAL)).isEqualTo(Duration.ofMillis(750));
        assertThat(config.get(JobOptions.STAGE_TIMEOUT)).isEqualTo(Duration.ofMinutes(7));
        assertThat(config.get(JobOptions.LLM_RETRY_WINDOW)).isEqualTo(Duration.ofMinutes(2));
        assertThat(config.get(JobOptions.JOURNAL_RETENTION)).isEqualTo(Duration.ofDays(3));
        assertThat(config.get(JobOptions.DATABASE_ROOTS)).containsExactly("/a", "/b");
        assertThat(config.get(JobOptions.LLM_CACHE_MODE)).isEqualTo(io.flowsql.config.llm.CacheMode.READ_ONLY);
        assertThat(config.get(JobOptions.LLM_STRUCTURED_OUTPUT)).isEqualTo(io.flowsql.config.llm.StructuredOutput.JSON_SCHEMA);
        assertThat(config.get(JobOptions.JOURNAL_RELEASE)).isEqualTo(io.flowsql.config.journal.JournalRelease.RETAIN);
        assertThat(config.get(JobOptions.STARTING_OFFSETS)).isEqualTo(io.flowsql.job.kafka.StartingOffsets.LATEST);
        assertThat(config.get(JobOptions.FEEDBACK_ISOLATION)).isEqualTo(org.apache.kafka.common.IsolationLevel.READ_UNCOMMITTED);
        assertThat(config.explicitValues()).containsEntry("llm.cache-mode", "READ_ONLY");
    }

    @Test
    void aValueThatDoesNotParseFailsNamingTheKeyAndTheValue() {
        assertThatThrownBy(() -> JobConfig.of(Map.of("stage.timeout", "6 minutes-ish")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("stage.timeout: cannot read '6 minutes-ish'");
        assertThatThrownBy(() -> JobConfig.of(Map.of("stage.timeout.magsql.generate", "soon")))
                .hasMessageStartingWith("stage.timeout.magsql.generate: cannot read 'soon'");
        assertThatThrownBy(() -> JobConfig.of(Map.of("stage.capacity.mmsql.detect", "many")))
                .hasMessageStartingWith("stage.capacity.mmsql.detect: cannot read 'many'");
        assertThatThrownBy(() -> JobConfig.of(Map.of("llm.max-tokens.opensearch.generate", "1k")))
                .hasMessageStartingWith("llm.max-tokens.opensearch.generate: cannot read '1k'");
        assertThatThrownBy(() -> JobConfig.of(Map.of("journal.release", "never")))
                .hasMessage("journal.release must be one of on-commit, retain, not 'never'");
        assertThatThrownBy(() -> JobConfig.of(Map.of("engine.strategy", "fastest")))
                .hasMessageStartingWith("engine.strategy must be one of ").hasMessageContaining("opensearch");
        assertThatThrownBy(() -> JobConfig.of(Map.of("job.presets", "opensearch;magsql", "engine.strategy", "opensearch")))
                .hasMessageContaining("job.presets names an unknown preset 'magsql'");
        assertThatThrownBy(() -> JobConfig.of(Map.of("job.presets", "mmsql")))
                .hasMessageContaining("engine.strategy (opensearch) must be one of job.presets (mmsql)");
        assertThatThrownBy(() -> JobConfig.of(Map.of("stage.timeouts", "1min")))
                .hasMessageContaining("unknown option 'stage.timeouts'");
        assertThatThrownBy(() -> JobConfig.of(Map.of("stage.capacity.sqlfix.review", "0")))
                .hasMessageContaining("stage.capacity.sqlfix.review must be at least 1");
    }

    @Test
    void budgetsThatCannotBeMetFailAtStartNamingTheKey() {
        assertThatThrownBy(() -> JobConfig.of(Map.of("stage.timeout.magsql.generate", "1min")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("stage.timeout.magsql.generate (PT1M) is shorter than llm.total-budget");
        assertThatThrownBy(() -> JobConfig.of(Map.of("stage.timeout", "2min")))
                .hasMessageStartingWith("stage.timeout (PT2M) is shorter than llm.total-budget");
        assertThatThrownBy(() -> JobConfig.of(Map.of("execution.timeout", "5s")))
                .hasMessageStartingWith("execution.timeout (PT5S) is shorter than sql.query-timeout");
        assertThatThrownBy(() -> JobConfig.of(Map.of("execution.gather-timeout", "20s")))
                .hasMessageStartingWith("execution.gather-timeout (PT20S) is shorter than execution.timeout");
        assertThatThrownBy(() -> JobConfig.of(Map.of("dialogue.feedback-wait", "2s", "job.checkpoint-interval", "3s")))
                .hasMessageStartingWith("dialogue.feedback-wait (PT2S) must exceed job.checkpoint-interval");
        assertThat(JobConfig.defaults().get(JobOptions.STAGE_TIMEOUT)).isGreaterThanOrEqualTo(
                JobConfig.defaults().get(JobOptions.LLM_TOTAL_BUDGET));
    }

    @Test
    void aQueueBudgetOutsideTheCallBudgetOrCapacityAbovePermitsWithoutAQueueFailAtStart() {
        assertThatThrownBy(() -> JobConfig.of(Map.of("llm.queue-budget", "6min")))
                .hasMessageStartingWith("llm.queue-budget (PT6M) must be between 0 and llm.total-budget (PT5M)");
        assertThatThrownBy(() -> JobConfig.of(Map.of("llm.queue-budget", "0s")))
                .hasMessageStartingWith("stage.capacity (100) is above the 32 connection permits")
                .hasMessageContaining("llm.queue-budget is 0");
        assertThatThrownBy(() -> JobConfig.of(Map.of("llm.queue-budget", "0s", "stage.capacity", "32",
                "stage.capacity.magsql.generate", "40")))
                .hasMessageStartingWith("stage.capacity.magsql.generate (40) is above the 32 connection permits");
        JobConfig noQueue = JobConfig.of(Map.of("llm.queue-budget", "0s", "llm.server-slots", "64"));
        assertThat(EngineWiring.llm(noQueue).queueBudget()).isZero();
        assertThat(EngineWiring.llm(JobConfig.of(Map.of("llm.queue-budget", "30s"))).queueBudget())
                .isEqualTo(Duration.ofSeconds(30));
        assertThat(EngineWiring.llm(JobConfig.defaults()).queueBudget()).as("by default: the whole call budget")
                .isEqualTo(JobConfig.defaults().get(JobOptions.LLM_TOTAL_BUDGET));
        assertThat(EngineWiring.llm(JobConfig.of(Map.of("llm.total-budget", "2min", "stage.timeout", "3min")))
                .queueBudget()).as("the default follows a lowered call budget").isEqualTo(Duration.ofMinutes(2));
    }
}

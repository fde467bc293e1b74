package io.flowsql.job;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EndpointKeyTest {
    @Test
    void theKeyComesFromTheOptionElseTheNamedVariableElseTheNamedFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("llm-key");
        Files.writeString(file, "sk-from-file\nsecond line ignored\n");
        Map<String, String> environment = Map.of("FLOWSQL_LLM_KEY", "sk-from-env");

        assertThat(EndpointKey.resolve(JobConfig.of(Map.of()), environment::get)).isEmpty();
        assertThat(EndpointKey.resolve(JobConfig.of(Map.of(JobOptions.LLM_API_KEY_FILE.key(), file.toString())),
                environment::get)).isEqualTo("sk-from-file");
        assertThat(EndpointKey.resolve(JobConfig.of(Map.of(JobOptions.LLM_API_KEY_FILE.key(), file.toString(),
                JobOptions.LLM_API_KEY_ENV.key(), "FLOWSQL_LLM_KEY")), environment::get)).isEqualTo("sk-from-env");
        assertThat(EndpointKey.resolve(JobConfig.of(Map.of(JobOptions.LLM_API_KEY.key(), "sk-literal",
                JobOptions.LLM_API_KEY_ENV.key(), "FLOWSQL_LLM_KEY")), environment::get)).isEqualTo("sk-literal");
        assertThat(EngineWiring.llm(JobConfig.of(Map.of(JobOptions.LLM_API_KEY_FILE.key(), file.toString()))).apiKey())
                .isEqualTo("sk-from-file");
    }

    @Test
    void aMissingVariableOrFileFailsNamingWhereItLooked(@TempDir Path dir) {
        assertThatThrownBy(() -> EndpointKey.resolve(JobConfig.of(Map.of(JobOptions.LLM_API_KEY_ENV.key(), "NO_SUCH_VAR")),
                name -> null)).hasMessageContaining("NO_SUCH_VAR").hasMessageContaining(JobOptions.LLM_API_KEY_ENV.key());
        Path missing = dir.resolve("absent");
        assertThatThrownBy(() -> EndpointKey.resolve(JobConfig.of(Map.of(JobOptions.LLM_API_KEY_FILE.key(), missing.toString())),
                name -> null)).hasMessageContaining(missing.toString());
    }

    @Test
    void optionsNamingWhereASecretLivesAreNotSecretsThemselves() {
        assertThat(JobConfig.isSecret(JobOptions.LLM_API_KEY.key())).isTrue();
        assertThat(JobConfig.isSecret("databases.sales.password")).isTrue();
        assertThat(JobConfig.isSecret(JobOptions.LLM_API_KEY_ENV.key())).isFalse();
        assertThat(JobConfig.isSecret("databases.sales.password-file")).isFalse();
        JobConfig config = JobConfig.of(Map.of("databases.sales.url", "jdbc:postgresql://h/sales",
                "databases.sales.password-env", "SALES_PW"));
        assertThat(config.explicitValues()).containsEntry("databases.sales.password-env", "SALES_PW");
    }
}

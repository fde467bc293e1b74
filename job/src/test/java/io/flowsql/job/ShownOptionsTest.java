package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.config.feedback.FeedbackOptions;
import io.flowsql.config.journal.JournalOptions;
import io.flowsql.config.llm.LlmOptions;
import io.flowsql.config.pacing.PacingOptions;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.configuration.ConfigOption;
import org.junit.jupiter.api.Test;

/** The allow-list of shown options holds for the rooms' options wherever they are declared. */
class ShownOptionsTest {
    /** A key naming a credential itself (not where one lives: *-env, *-file). */
    private static final Pattern CREDENTIAL = Pattern.compile(".*(^|[.-])(key|password|passphrase|secret|credentials?|jaas)([.-].*)?");

    @Test
    void noDeclaredOptionNamingACredentialIsShown() {
        List<String> credentials = JobOptions.all().stream().map(ConfigOption::key)
                .filter(k -> CREDENTIAL.matcher(k).matches() && !k.endsWith("-env") && !k.endsWith("-file")).toList();
        assertThat(credentials).as("the check finds the endpoint's key").contains(LlmOptions.API_KEY.key());
        assertThat(credentials).allMatch(JobConfig::isSecret);
    }

    @Test
    void theMovedRoomsOptionsAreShownTheEndpointsKeyAndUnknownKeysUnderTheirPrefixesAreMasked() {
        List<ConfigOption<?>> rooms = Stream.of(LlmOptions.options(), JournalOptions.options(), FeedbackOptions.options(),
                PacingOptions.options()).flatMap(List::stream).toList();
        for (ConfigOption<?> option : rooms) {
            assertThat(JobConfig.isSecret(option.key())).as(option.key()).isEqualTo(option == LlmOptions.API_KEY);
        }
        assertThat(ShownOptions.shown("llm.model.opensearch.generate", "m")).isTrue();
        for (String unknown : List.of("llm.api-token", "llm.headers.authorization", "journal.sasl", "feedback.password",
                "kafka.client.sasl.jaas.config", "databases.dw.password")) {
            assertThat(ShownOptions.shown(unknown, "value")).as(unknown).isFalse();
        }
    }
}

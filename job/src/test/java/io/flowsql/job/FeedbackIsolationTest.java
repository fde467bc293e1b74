package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The feedback source's isolation level: read_committed unless configured, and nothing but the two Kafka levels. */
class FeedbackIsolationTest {

    @Test
    void theNextTurnReadsCommittedAnswersByDefaultAndUncommittedOnesWhenAsked() {
        assertThat(KafkaSources.feedbackIsolation(JobConfig.of(Map.of()))).isEqualTo("read_committed");
        assertThat(KafkaSources.feedbackIsolation(JobConfig.of(Map.of("dialogue.feedback-isolation", "read_uncommitted"))))
                .isEqualTo("read_uncommitted");
        assertThatThrownBy(() -> KafkaSources.feedbackIsolation(JobConfig.of(Map.of("dialogue.feedback-isolation", "committed"))))
                .hasMessageContaining("dialogue.feedback-isolation");
    }
}

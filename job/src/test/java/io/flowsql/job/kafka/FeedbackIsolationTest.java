package io.flowsql.job.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flowsql.job.JobConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The feedback source's isolation level: read_uncommitted unless configured, and nothing but the two Kafka levels. */
class FeedbackIsolationTest {

    @Test
    void theNextTurnReadsUncommittedAnswersByDefaultAndCommittedOnesWhenAsked() {
        assertThat(KafkaSources.feedbackIsolation(JobConfig.of(Map.of()))).isEqualTo("read_uncommitted");
        assertThat(KafkaSources.feedbackIsolation(JobConfig.of(Map.of("dialogue.feedback-isolation", "read_committed"))))
                .isEqualTo("read_committed");
        assertThatThrownBy(() -> KafkaSources.feedbackIsolation(JobConfig.of(Map.of("dialogue.feedback-isolation", "committed"))))
                .hasMessageContaining("dialogue.feedback-isolation");
    }
}

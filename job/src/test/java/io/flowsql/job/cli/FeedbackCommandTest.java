package io.flowsql.job.cli;

import io.flowsql.events.EventJson;
import io.flowsql.events.FeedbackEvent;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What `flowsql.sh feedback` sends is valid feedback of the kind its options describe, and a mix is refused. */
class FeedbackCommandTest {

    private static FeedbackEvent event(String... args) {
        FeedbackCommand command = new FeedbackCommand();
        new CommandLine(command).parseArgs(args);
        return command.event();
    }

    @Test
    void pairsVerdictsAndRetractionsAreValidFeedback() {
        FeedbackEvent pair = event("--id", "fb-1", "--db", "concert_singer", "--question", "How many singers?", "--sql", "SELECT count(*) FROM singer");
        FeedbackEvent wrong = event("--request-id", "q-7", "--wrong", "--sql", "SELECT 1");
        FeedbackEvent correct = event("--request-id", "q-8", "--correct");
        FeedbackEvent retraction = event("--retract", "fb-1");
        assertThat(pair.kind).isEqualTo("pair");
        assertThat(wrong.verdict).isEqualTo("wrong");
        assertThat(wrong.correctedSql).isEqualTo("SELECT 1");
        assertThat(correct.verdict).isEqualTo("correct");
        assertThat(retraction.retracts).isEqualTo("fb-1");
        for (FeedbackEvent e : new FeedbackEvent[] {pair, wrong, correct, retraction}) {
            assertThat(EventJson.parseFeedback(EventJson.toBytes(e)).isValid()).as(e.kind).isTrue();
        }
    }

    @Test
    void aMixOfKindsOrAMissingFieldIsRefused() {
        assertThatThrownBy(() -> event("--db", "concert_singer", "--question", "q")).hasMessageContaining("--sql");
        assertThatThrownBy(() -> event("--request-id", "q-1")).hasMessageContaining("--correct or --wrong");
        assertThatThrownBy(() -> event("--request-id", "q-1", "--correct", "--sql", "SELECT 1")).hasMessageContaining("--wrong");
        assertThatThrownBy(() -> event("--retract", "fb-1", "--db", "x")).hasMessageContaining("--retract");
    }
}

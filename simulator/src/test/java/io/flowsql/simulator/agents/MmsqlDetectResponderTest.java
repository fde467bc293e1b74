package io.flowsql.simulator.agents;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.simulator.SimulatedMessage;
import io.flowsql.simulator.SimulatedRequest;
import io.flowsql.simulator.SimulationContext;
import io.flowsql.simulator.oracle.SqlErrorInjector;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The simulated detector's rules for turns no typed dialogue labels, and re-asks answered from the original prompt. */
class MmsqlDetectResponderTest {
    private static final String SCHEMA = "Schema:\n# Table: singer\n(singer_id, number)\n(name, text)\n(country, text)\n";

    private final MmsqlDetectResponder responder = new MmsqlDetectResponder();
    private final SimulationContext context =
            new SimulationContext(new Random(7), Optional.empty(), SqlErrorInjector.none());

    private static SimulatedRequest detect(String question, String... followUps) {
        List<SimulatedMessage> messages = new ArrayList<>();
        messages.add(new SimulatedMessage("system", "### Task: mmsql.detect\nClassify the turn."));
        messages.add(new SimulatedMessage("user", "Database: concert_singer\nQuestion: " + question + "\n" + SCHEMA));
        for (String followUp : followUps) {
            messages.add(new SimulatedMessage("assistant", "not json"));
            messages.add(new SimulatedMessage("user", followUp));
        }
        return new SimulatedRequest("m", messages, 1, null, null, null, false);
    }

    private String typeOf(SimulatedRequest request) {
        String answer = responder.respond(request, context).orElseThrow().get(0);
        return answer.replaceAll("(?s).*\"type\": \"([a-z]+)\".*", "$1");
    }

    @Test
    void aQuestionThatNamesTheSchemaIsAnswerable() {
        assertThat(typeOf(detect("How many singers are there?"))).isEqualTo("answerable");
    }

    @Test
    void aVagueWordMakesItAmbiguous() {
        assertThat(typeOf(detect("Who is the best singer?"))).isEqualTo("ambiguous");
    }

    @Test
    void pleasantriesAreImproperAndForeignTopicsUnanswerable() {
        assertThat(typeOf(detect("Thanks a lot!"))).isEqualTo("improper");
        assertThat(typeOf(detect("What is the weather in Paris tomorrow?"))).isEqualTo("unanswerable");
    }

    @Test
    void aReAskIsAnsweredFromTheOriginalPrompt() {
        SimulatedRequest reAsk = detect("Who is the best singer?", "Your answer could not be read. Answer in the format asked.");
        assertThat(reAsk.field("Question")).contains("Who is the best singer?");
        assertThat(reAsk.field("Database")).contains("concert_singer");
        assertThat(typeOf(reAsk)).isEqualTo("ambiguous");
    }
}

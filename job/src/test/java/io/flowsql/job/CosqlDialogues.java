package io.flowsql.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.simulator.RecordedRequest;
import io.flowsql.simulator.oracle.GoldSqlOracle;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real multi-turn CoSQL dev dialogues for the job's tests, and the check that a dialogue was answered turn by
 * turn with its history: every LLM call of a turn (as the simulator logged it) carries the SQL the earlier turns
 * were answered with, knows no later turn, and starts after the previous turn's calls.
 */
final class CosqlDialogues {
    private CosqlDialogues() {}

    /** One user turn of a CoSQL dialogue and the gold SQL of the system turn that answers it. */
    record Turn(String text, String goldSql) {}

    /** A dialogue's database and its user turns. */
    record Dialogue(String db, List<Turn> turns) {
        /** Turn {@code index} as a question of dialogue {@code dialogueId} (request id dialogueId-turn-index). */
        QuestionEvent question(String dialogueId, int index) {
            return new QuestionEvent(dialogueId + "-turn-" + index, dialogueId, db, turns.get(index).text());
        }

        List<QuestionEvent> questions(String dialogueId) {
            List<QuestionEvent> out = new ArrayList<>();
            for (int i = 0; i < turns.size(); i++) {
                out.add(question(dialogueId, i));
            }
            return out;
        }
    }

    /**
     * The first {@code count} dialogues of CoSQL dev on databases we have, with {@code minTurns} to {@code maxTurns}
     * user turns, all answerable with gold SQL the oracle knows under their own text (CoSQL repeats some turns
     * across dialogues; the oracle keeps the first), and no turn text shared with another chosen dialogue (so the
     * simulator's log tells the turns apart).
     */
    static List<Dialogue> answerable(Path sharedData, GoldSqlOracle oracle, int minTurns, int maxTurns, int count)
            throws IOException {
        Path cosql = sharedData.resolve("cosql/cosql_dev.json");
        assertThat(cosql).as("CoSQL dev under flowsql.shared.data").isRegularFile();
        List<Dialogue> out = new ArrayList<>();
        Set<String> texts = new HashSet<>();
        for (JsonNode dialogue : EventJson.mapper().readTree(cosql.toFile())) {
            String db = dialogue.path("db_name").asText();
            List<Turn> turns = userTurns(dialogue);
            boolean usable = Files.isRegularFile(sharedData.resolve("spider/database").resolve(db).resolve(db + ".sqlite"))
                    && turns.size() >= minTurns && turns.size() <= maxTurns
                    && turns.stream().allMatch(t -> !t.goldSql().isEmpty()
                            && oracle.goldSql(db, t.text()).orElse("").equals(t.goldSql())
                            && oracle.questionType(db, t.text()).orElse("").equals("answerable")
                            && !texts.contains(oneLine(t.text())));
            if (usable) {
                out.add(new Dialogue(db, turns));
                turns.forEach(t -> texts.add(oneLine(t.text())));
                if (out.size() == count) {
                    return out;
                }
            }
        }
        throw new AssertionError("only " + out.size() + " usable answerable CoSQL dialogues in " + cosql + ", " + count + " needed");
    }

    /**
     * Checks from the simulator's request log that each turn of {@code dialogue} was worked on after the previous
     * one, with every earlier turn's answered SQL ({@code answers}, in turn order) in each of its prompts and no
     * later turn's text.
     */
    static void assertAnsweredInOrderWithHistory(List<RecordedRequest> requests, Dialogue dialogue, List<AnswerEvent> answers) {
        assertAnsweredInOrderWithHistory(requests, dialogue, answers, 0);
    }

    /** The same check for the turns from {@code firstTurn} on (the earlier ones were answered by another job, elsewhere). */
    static void assertAnsweredInOrderWithHistory(List<RecordedRequest> requests, Dialogue dialogue, List<AnswerEvent> answers,
                                                 int firstTurn) {
        List<Turn> turns = dialogue.turns();
        long previousTurnLastCall = Long.MIN_VALUE;
        for (int i = firstTurn; i < turns.size(); i++) {
            String label = dialogue.db() + " turn " + (i + 1) + ": " + turns.get(i).text().strip();
            List<RecordedRequest> calls = callsFor(requests, turns.get(i).text());
            // The first turn checked may have been in flight at a savepoint, some of its stages done by the other job.
            boolean resumed = i == firstTurn && i > 0;
            if (!resumed) {
                assertThat(calls).extracting(r -> r.request().task()).as(label)
                        .contains("mmsql.select", "mmsql.detect", "mmsql.decompose");
            }
            for (RecordedRequest call : calls) {
                String prompt = call.request().lastUserMessage();
                for (int earlier = 0; earlier < i; earlier++) {
                    assertThat(prompt).as(label + " → " + call.request().task())
                            .contains("SQL: " + oneLine(answers.get(earlier).sql));
                }
                for (int later = i + 1; later < turns.size(); later++) {
                    assertThat(prompt).as(label + " must not know a later turn")
                            .doesNotContain(turns.get(later).text().strip());
                }
                assertThat(call.receivedAtNanos()).as(label + " starts after the previous turn's calls")
                        .isGreaterThan(previousTurnLastCall);
            }
            previousTurnLastCall = calls.stream().mapToLong(RecordedRequest::receivedAtNanos).max().orElse(previousTurnLastCall);
        }
    }

    private static List<RecordedRequest> callsFor(List<RecordedRequest> requests, String question) {
        return requests.stream()
                .filter(r -> r.request() != null && oneLine(r.request().field("Question").orElse("")).equals(oneLine(question)))
                .toList();
    }

    private static String oneLine(String text) {
        return text.strip().replaceAll("\\s+", " ");
    }

    private static List<Turn> userTurns(JsonNode dialogue) {
        JsonNode raw = dialogue.path("turns");
        List<Turn> turns = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            if (raw.get(i).path("isUser").asBoolean()) {
                boolean answered = i + 1 < raw.size() && !raw.get(i + 1).path("isUser").asBoolean(true);
                turns.add(new Turn(raw.get(i).path("text").asText(), answered ? raw.get(i + 1).path("query").asText("").strip() : ""));
            }
        }
        return turns;
    }
}

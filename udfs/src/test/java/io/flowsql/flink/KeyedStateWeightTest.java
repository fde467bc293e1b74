package io.flowsql.flink;

import io.flowsql.pipeline.DialogueTurn;
import io.flowsql.pipeline.DialogueTurnSerializer;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the keyed state the job keeps after a question is answered weighs (the heap backend rewrites all of it at every
 * checkpoint): the dialogue operator's history turn and the request-id check's status, measured as the growth of each
 * operator's snapshot per answered question, and printed. The history is the larger part; it costs about its text plus
 * the per-entry overhead, no class or field names.
 */
class KeyedStateWeightTest {
    private static final int QUESTIONS = 400;

    private static DialogueTurn turnOf(int i) {
        return new DialogueTurn("opensearch-s64-sustained-" + i, "What are the names of the singers who performed in "
                + "concerts in 2014, ordered by age?", "answerable",
                "SELECT T2.name FROM singer_in_concert AS T1 JOIN singer AS T2 ON T1.singer_id = T2.singer_id JOIN concert "
                        + "AS T3 ON T1.concert_id = T3.concert_id WHERE T3.year = 2014 ORDER BY T2.age",
                "answered, 3 rows: Joe Sharp | Timbaland | Justin Brown");
    }

    private static long dialogueStateBytes(int questions) throws Exception {
        try (var h = StateFixtures.dialogueHarness()) {
            h.open();
            for (int i = 0; i < questions; i++) {
                DialogueTurn turn = turnOf(i);
                h.processElement1(StateFixtures.request(turn.requestId, "d" + i, turn.question), 0);
                h.processElement2(new FeedbackTurn("d" + i, turn), 0);
            }
            assertThat(h.extractOutputValues()).hasSize(questions);
            return h.snapshot(1, 1).getStateSize();
        }
    }

    private static long requestIdStateBytes(int questions) throws Exception {
        try (var h = StateFixtures.requestIdHarness()) {
            h.open();
            for (int i = 0; i < questions; i++) {
                String id = "opensearch-s64-sustained-" + i;
                h.processElement1(StateFixtures.request(id, "d" + i, "How many singers?"), 0);
                h.processElement2(StateFixtures.answer(id, "d" + i, "answered"), 0);
            }
            return h.snapshot(1, 1).getStateSize();
        }
    }

    @Test
    void anAnsweredQuestionLeavesItsTurnAndItsStatusInKeyedStateAndTheTurnCostsAboutItsText() throws Exception {
        double dialogue = (dialogueStateBytes(QUESTIONS) - dialogueStateBytes(0)) / (double) QUESTIONS;
        double requestIds = (requestIdStateBytes(QUESTIONS) - requestIdStateBytes(0)) / (double) QUESTIONS;
        DialogueTurn turn = turnOf(QUESTIONS / 2);
        DataOutputSerializer compact = new DataOutputSerializer(512);
        DialogueTurnSerializer.INSTANCE.serialize(turn, compact);
        DataOutputSerializer pojo = new DataOutputSerializer(512);
        TypeInformation.of(DialogueTurn.class).createSerializer(new SerializerConfigImpl()).serialize(turn, pojo);
        System.out.printf(Locale.ROOT, "keyed state per answered question: dialogue operator %.0f bytes (the turn: %d "
                        + "bytes compact, %d as the PojoSerializer wrote it), request-id check %.0f bytes; %.0f bytes in all, "
                        + "rewritten at every checkpoint by the heap backend while kept (state TTL)%n",
                dialogue, compact.length(), pojo.length(), requestIds, dialogue + requestIds);
        // key (dialogue id), TTL timestamp, list framing and the turn; more than the turn, less than the turn + 64 bytes
        assertThat(dialogue).isGreaterThan(compact.length()).isLessThan(compact.length() + 64);
        assertThat(requestIds).isGreaterThan(turn.requestId.length()).isLessThan(dialogue);
    }
}

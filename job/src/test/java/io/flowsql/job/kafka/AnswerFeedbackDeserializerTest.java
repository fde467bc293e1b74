package io.flowsql.job.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.flink.FeedbackTurns;
import io.flowsql.pipeline.DialogueTurn;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Answers read back keep what their readers use (the dialogue turn, the request id's status) and leave the rest
 * unbuilt: the turn is the one the whole answer gives; the trace, candidates and rows after the first are not there.
 */
class AnswerFeedbackDeserializerTest {
    private static final String ANSWER = "{\"request_id\":\"q-7\",\"dialogue_id\":\"d-2\",\"db_id\":\"concert_singer\","
            + "\"question\":\"How many singers per country?\",\"question_type\":\"answerable\",\"status\":\"answered\","
            + "\"sql\":\"SELECT country, count(*) FROM singer GROUP BY country\",\"summary\":\"3 countries\","
            + "\"result\":{\"columns\":[\"country\",\"n\"],\"rows\":[[\"France\",\"4\"],[\"Netherlands\",\"1\"],[\"US\",\"1\"]],"
            + "\"row_count\":3,\"truncated\":false},"
            + "\"chart\":{\"kind\":\"bar\",\"x\":\"country\",\"y\":[\"n\"]},"
            + "\"interpretations\":[{\"reading\":\"per country\",\"sql\":\"SELECT 1\"}],"
            + "\"candidates\":[{\"sql\":\"SELECT country, count(*) FROM singer GROUP BY 1\",\"votes\":3},{\"sql\":\"SELECT 2\"}],"
            + "\"trace\":[{\"stage\":\"opensearch.generate\",\"millis\":412,\"detail\":{\"samples\":[\"a\",\"b\"]}}],"
            + "\"knowledge_used\":[\"k-1\"],\"retrieved_tables\":[\"singer\"],\"answered_at\":\"2026-11-29T12:00:00Z\"}";

    @Test
    void anAnswerReadBackGivesTheTurnTheWholeAnswerGivesWithoutItsBulk() {
        AnswerEvent whole = EventJson.parseAnswer(ANSWER.getBytes(StandardCharsets.UTF_8));
        List<AnswerEvent> out = read(ANSWER);
        assertThat(out).hasSize(1);
        AnswerEvent readBack = out.get(0);
        assertThat(readBack.requestId).isEqualTo("q-7");
        assertThat(readBack.dialogueId).isEqualTo("d-2");
        assertThat(readBack.status).isEqualTo("answered");
        assertThat(whole.trace).as("the whole answer has them").isNotEmpty();
        assertThat(whole.candidates).isNotEmpty();
        assertThat(readBack.trace).isEmpty();
        assertThat(readBack.candidates).isEmpty();
        assertThat(readBack.interpretations).isEmpty();
        assertThat(readBack.chart).isNull();
        assertThat(readBack.result.rows).containsExactly(List.of("France", "4"));
        assertThat(readBack.result.rowCount).isEqualTo(3);

        DialogueTurn fromWhole = FeedbackTurns.turnOf(whole);
        DialogueTurn fromReadBack = FeedbackTurns.turnOf(readBack);
        assertThat(fromReadBack).usingRecursiveComparison().isEqualTo(fromWhole);
        assertThat(fromReadBack.summary).isEqualTo("answered, 3 rows: France | 4");
    }

    @Test
    void aBrokenOrForeignRecordIsSkipped() {
        assertThat(read("{\"request_id\":")).isEmpty();
        assertThat(read("{\"unrelated\":true}")).as("no ids: not an answer of this job").isEmpty();
    }

    private static List<AnswerEvent> read(String value) {
        List<AnswerEvent> out = new ArrayList<>();
        new AnswerFeedbackDeserializer().deserialize(new ConsumerRecord<>("answers", 0, 0L, null,
                value.getBytes(StandardCharsets.UTF_8)), new Collector<>() {
                    @Override
                    public void collect(AnswerEvent record) {
                        out.add(record);
                    }

                    @Override
                    public void close() {
                    }
                });
        return out;
    }
}

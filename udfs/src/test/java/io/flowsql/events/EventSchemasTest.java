package io.flowsql.events;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.PreviewRow;
import io.flowsql.pipeline.Interpretation;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageTrace;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class EventSchemasTest {

    private static QuestionParse parse(String json) {
        return EventJson.parseQuestion(json.getBytes(StandardCharsets.UTF_8));
    }

    private static JsonNode tree(Object event) {
        return EventJson.mapper().valueToTree(event);
    }

    @Test
    void aCompleteQuestionParsesWithEveryField() {
        QuestionParse p = parse("""
                {"request_id":"r1","dialogue_id":"d1","db_id":"concert_singer","question":"How many singers do we have?",
                 "evidence":"singer means a row of singer","sent_at":"2025-01-01T00:00:00Z",
                 "options":{"strategy":"mag-sql","candidates":5,"disabled_stages":["sqlfix.review"],"journal_of":"r0"}}""");
        assertThat(p.isValid()).as(String.valueOf(p.reason())).isTrue();
        QuestionEvent q = p.question();
        assertThat(q.requestId).isEqualTo("r1");
        assertThat(q.dbId).isEqualTo("concert_singer");
        assertThat(q.evidence).isEqualTo("singer means a row of singer");
        assertThat(q.options.strategy).isEqualTo("mag-sql");
        assertThat(q.options.candidates).isEqualTo(5);
        assertThat(q.options.disabledStages).containsExactly("sqlfix.review");

        RequestContext ctx = QuestionMapper.toContext(q, "questions/0@7", 42L);
        assertThat(ctx.strategy).isEqualTo("mag-sql");
        assertThat(ctx.disabledStages).containsExactly("sqlfix.review");
        assertThat(ctx.notes).containsEntry(QuestionMapper.CANDIDATES_NOTE, "5");
        assertThat(ctx.origin).isEqualTo("questions/0@7");
        assertThat(ctx.journalId()).as("options.journal_of names the journal the request reads").isEqualTo("r0");
    }

    @Test
    void aQuestionRoundTripsThroughTheSharedMapper() {
        QuestionEvent q = new QuestionEvent("r2", "d2", "pets_1", "How many pets?");
        QuestionParse back = EventJson.parseQuestion(EventJson.toBytes(q));
        assertThat(back.isValid()).as(String.valueOf(back.reason())).isTrue();
        assertThat(back.question().question).isEqualTo("How many pets?");
        assertThat(EventJson.toJson(q)).contains("\"dialogue_id\":\"d2\"").doesNotContain("dialogueId");
    }

    @Test
    void notJsonIsRejectedAsNotJson() {
        assertThat(parse("this is not json").rejectKind()).isEqualTo(RejectKind.NOT_JSON);
        assertThat(parse("").rejectKind()).isEqualTo(RejectKind.NOT_JSON);
        assertThat(EventJson.parseQuestion(null).reason()).startsWith("not_json: ");
    }

    @Test
    void aMissingQuestionIsRejectedWithTheSchemaReason() {
        QuestionParse p = parse("{\"request_id\":\"r\",\"dialogue_id\":\"d\",\"db_id\":\"concert_singer\"}");
        assertThat(p.isValid()).isFalse();
        assertThat(p.rejectKind()).isEqualTo(RejectKind.SCHEMA);
        assertThat(p.reason()).startsWith("schema: ").contains("question");
    }

    /** options.stage_modes picks a mode per stage for one question; the schema admits only the stages' own modes. */
    @Test
    void stageModesTravelToTheContextAndUnknownModesAreRejected() {
        QuestionParse p = parse("{\"request_id\":\"r\",\"dialogue_id\":\"d\",\"db_id\":\"x\",\"question\":\"q?\","
                + "\"options\":{\"stage_modes\":{\"opensearch.align\":\"rules\",\"opensearch.correct\":\"rounds\"}}}");
        assertThat(p.isValid()).as(String.valueOf(p.reason())).isTrue();
        RequestContext ctx = QuestionMapper.toContext(p.question(), "questions/0@1", 1L);
        assertThat(io.flowsql.pipeline.StageModes.of(ctx, "opensearch.align", "model")).isEqualTo("rules");
        assertThat(io.flowsql.pipeline.StageModes.of(ctx, "opensearch.correct", "regenerate")).isEqualTo("rounds");
        assertThat(io.flowsql.pipeline.StageModes.of(ctx, "opensearch.vote", "plain")).isEqualTo("plain");

        QuestionParse badMode = parse("{\"request_id\":\"r\",\"dialogue_id\":\"d\",\"db_id\":\"x\",\"question\":\"q?\","
                + "\"options\":{\"stage_modes\":{\"opensearch.align\":\"guess\"}}}");
        assertThat(badMode.rejectKind()).isEqualTo(RejectKind.SCHEMA);
        QuestionParse badStage = parse("{\"request_id\":\"r\",\"dialogue_id\":\"d\",\"db_id\":\"x\",\"question\":\"q?\","
                + "\"options\":{\"stage_modes\":{\"opensearch.vote\":\"rules\"}}}");
        assertThat(badStage.rejectKind()).isEqualTo(RejectKind.SCHEMA);
    }

    @Test
    void wrongTypesAreRejected() {
        QuestionParse p = parse("{\"request_id\":7,\"dialogue_id\":\"d\",\"db_id\":\"concert_singer\",\"question\":\"q?\"}");
        assertThat(p.rejectKind()).isEqualTo(RejectKind.SCHEMA);
        assertThat(p.reason()).contains("request_id");
        QuestionParse opts = parse("{\"request_id\":\"r\",\"dialogue_id\":\"d\",\"db_id\":\"x\",\"question\":\"q?\",\"options\":{\"candidates\":\"many\"}}");
        assertThat(opts.rejectKind()).isEqualTo(RejectKind.SCHEMA);
        assertThat(opts.reason()).contains("candidates");
        assertThat(parse("[1,2,3]").rejectKind()).isEqualTo(RejectKind.SCHEMA);
    }

    @Test
    void blankTextAndUnknownPropertiesAreRejected() {
        assertThat(parse("{\"request_id\":\"r\",\"dialogue_id\":\"d\",\"db_id\":\"x\",\"question\":\"   \"}").rejectKind())
                .isEqualTo(RejectKind.SCHEMA);
        QuestionParse typo = parse("{\"request_id\":\"r\",\"dialogue_id\":\"d\",\"db_id\":\"x\",\"question\":\"q?\",\"questoin\":\"q\"}");
        assertThat(typo.rejectKind()).isEqualTo(RejectKind.SCHEMA);
        assertThat(typo.reason()).contains("questoin");
        assertThat(parse("{\"request_id\":\"r\",\"dialogue_id\":\"d\",\"db_id\":\"../etc\",\"question\":\"q?\"}").rejectKind())
                .isEqualTo(RejectKind.SCHEMA);
    }

    @Test
    void anAnsweredContextMapsToAValidAnswerWithACappedPreview() {
        RequestContext ctx = context();
        ctx.finalSql = "SELECT name FROM singer";
        ctx.questionType = "answerable";
        Candidate chosen = new Candidate("magsql.generate#1", ctx.finalSql);
        chosen.executed = true;
        chosen.votes = 2;
        chosen.rowCount = 30;
        chosen.previewColumns = List.of("name");
        for (int i = 0; i < 30; i++) {
            chosen.preview.add(new PreviewRow(List.of("singer " + i)));
        }
        Candidate broken = new Candidate("magsql.generate#2", "SELECT nme FROM singer");
        broken.executed = true;
        broken.error = "INVALID_SQL: no such column: nme";
        ctx.candidates.addAll(List.of(chosen, broken));
        StageTrace t = new StageTrace("magsql.generate");
        t.model = "simulated/oracle";
        t.latencyMillis = 12;
        t.countCall(ctx.receivedAtMillis + 40, 12);
        t.countEmbedding(ctx.receivedAtMillis + 30, 5);
        t.simulated = true;
        ctx.trace.add(t);

        AnswerEvent a = AnswerMapper.fromContext(ctx);
        // each call timed from the question's arrival, the embedding apart from the chat calls
        assertThat(a.trace.get(0).llmCalls).isEqualTo(1);
        assertThat(a.trace.get(0).embeddingCalls).isEqualTo(1);
        assertThat(a.trace.get(0).calls).extracting(c -> c.startMs, c -> c.durationMs, CallTiming::isEmbedding)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(40L, 12L, false),
                        org.assertj.core.groups.Tuple.tuple(30L, 5L, true));
        assertThat(a.status).isEqualTo("answered");
        assertThat(a.simulated).isTrue();
        assertThat(a.result.rows).hasSize(AnswerMapper.PREVIEW_ROWS);
        assertThat(a.result.rowCount).isEqualTo(30);
        assertThat(a.result.truncated).isTrue();
        assertThat(a.candidates).extracting(c -> c.error).containsExactly(null, "INVALID_SQL: no such column: nme");
        assertThat(EventSchemas.answerViolations(tree(a))).isEmpty();
        AnswerEvent back = EventJson.parseAnswer(EventJson.toBytes(a));
        assertThat(back.trace.get(0).latencyMs).isEqualTo(12);
        assertThat(back.trace.get(0).calls).extracting(c -> c.startMs).containsExactly(40L, 30L);
        assertThat(back.trace.get(0).embeddingCalls).isEqualTo(1);
        assertThat(back.result.columns).containsExactly("name");
    }

    @Test
    void unsettledAndClarifiedContextsMapToValidAnswers() {
        RequestContext unsettled = context();
        AnswerEvent failed = AnswerMapper.fromContext(unsettled);
        assertThat(failed.status).isEqualTo("failed");
        assertThat(failed.error).isNotBlank();
        assertThat(failed.simulated).isFalse();
        assertThat(EventSchemas.answerViolations(tree(failed))).isEmpty();

        RequestContext ambiguous = context();
        ambiguous.status = "clarification";
        ambiguous.questionType = "ambiguous";
        ambiguous.response = "Do you mean the oldest or the youngest?";
        ambiguous.interpretations.add(new Interpretation("oldest", "SELECT max(age) FROM singer"));
        AnswerEvent clar = AnswerMapper.fromContext(ambiguous);
        assertThat(clar.interpretations).hasSize(1);
        assertThat(clar.result).isNull();
        assertThat(EventSchemas.answerViolations(tree(clar))).isEmpty();
    }

    @Test
    void theAnswersSchemaRejectsAFailureWithoutError() {
        AnswerEvent a = AnswerMapper.fromContext(context());
        a.error = null;
        assertThat(EventSchemas.answerViolations(tree(a))).isNotEmpty();
        a.error = "x";
        a.status = "maybe";
        assertThat(EventSchemas.answerViolations(tree(a))).isNotEmpty();
    }

    @Test
    void deadLettersValidateAndNeedAKnownReasonKind() {
        QuestionParse p = parse("{oops");
        DeadLetterEvent dl = new DeadLetterEvent("{oops", "questions", 0, 12L, p.reason(), "2025-01-01T00:00:00Z");
        assertThat(EventSchemas.deadLetterViolations(tree(dl))).isEmpty();
        dl.reason = "because";
        assertThat(EventSchemas.deadLetterViolations(tree(dl))).isNotEmpty();
        dl.reason = p.reason();
        dl.offset = -1;
        assertThat(EventSchemas.deadLetterViolations(tree(dl))).isNotEmpty();
    }

    private static RequestContext context() {
        RequestContext ctx = new RequestContext();
        ctx.requestId = "r1";
        ctx.dialogueId = "d1";
        ctx.dbId = "concert_singer";
        ctx.question = "What are the names of the singers?";
        return ctx;
    }
}

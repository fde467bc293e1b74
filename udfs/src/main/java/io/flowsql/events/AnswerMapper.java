package io.flowsql.events;

import io.flowsql.pipeline.FailureKind;
import io.flowsql.pipeline.AnswerStatus;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.Interpretation;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.CallSpans;
import io.flowsql.pipeline.StageTrace;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Turns a finished request into the answer event, so the wire shape is decided in one place. */
public final class AnswerMapper {
    /** Rows of the result kept in an answer's preview. */
    public static final int PREVIEW_ROWS = 20;

    private AnswerMapper() {}

    public static AnswerEvent fromContext(RequestContext ctx) {
        return fromContext(ctx, Clock.systemUTC());
    }

    public static AnswerEvent fromContext(RequestContext ctx, Clock clock) {
        AnswerEvent answer = new AnswerEvent();
        answer.requestId = ctx.requestId;
        answer.dialogueId = ctx.dialogueId;
        answer.dbId = ctx.dbId;
        answer.tenant = ctx.tenant;
        answer.question = ctx.question;
        answer.questionType = ctx.questionType;
        answer.sql = ctx.finalSql;
        answer.response = ctx.response;
        answer.status = statusOf(ctx);
        answer.failedStage = ctx.failedStage;
        answer.error = ctx.error;
        if (AnswerStatus.FAILED.wireName().equals(answer.status)) {
            answer.errorKind = (ctx.failure == null ? FailureKind.INTERNAL : ctx.failure).wireName();
            if (answer.error == null) {
                answer.error = "no stage produced an answer";
            }
        } else if (AnswerStatus.REFUSED.wireName().equals(answer.status) && ctx.failure != null) {
            answer.errorKind = ctx.failure.wireName();
        }
        answer.result = resultOf(ctx).orElse(null);
        answer.chart = answer.result == null ? null : ChartSpecs.of(answer.result);
        answer.summary = io.flowsql.pipeline.Summaries.of(ctx);
        for (Interpretation i : ctx.interpretations) {
            answer.interpretations.add(new InterpretationView(i.reading, i.sql));
        }
        for (Candidate c : ctx.candidates) {
            answer.candidates.add(viewOf(c));
        }
        for (StageTrace t : ctx.trace) {
            TraceEntry entry = entryOf(t, ctx.receivedAtMillis);
            List<String> knowledgeUsed = io.flowsql.pipeline.KnowledgeInPrompts.usedBy(ctx, t.stage);
            entry.knowledgeUsed = knowledgeUsed.isEmpty() ? null : knowledgeUsed;
            answer.trace.add(entry);
            answer.simulated |= entry.simulated;
        }
        List<String> knowledge = io.flowsql.knowledge.KnowledgeEvidence.used(ctx);
        answer.knowledgeUsed = knowledge.isEmpty() ? null : new ArrayList<>(knowledge);
        answer.retrievedTables = ctx.retrievedTables == null ? null : new ArrayList<>(ctx.retrievedTables);
        answer.answeredAt = clock.instant().toString();
        return answer;
    }

    /** The stages' status, or answered / failed when none settled it. */
    private static String statusOf(RequestContext ctx) {
        if (ctx.status != null) {
            return ctx.status;
        }
        return ctx.finalSql != null ? AnswerStatus.ANSWERED.wireName() : AnswerStatus.FAILED.wireName();
    }

    /**
     * The result preview the answer of {@code ctx} carries (the chosen candidate's first rows, which went through the
     * tenant's access policy when they ran), or empty when the answer has no result.
     */
    private static Optional<ResultPreview> resultOf(RequestContext ctx) {
        return chosenCandidate(ctx).map(AnswerMapper::previewOf);
    }

    /** The executed candidate whose SQL is the final SQL (most votes first), whose rows make the preview. */
    private static Optional<Candidate> chosenCandidate(RequestContext ctx) {
        return io.flowsql.pipeline.Summaries.answerCandidate(ctx);
    }

    private static ResultPreview previewOf(Candidate c) {
        ResultPreview preview = new ResultPreview();
        preview.columns = new ArrayList<>(c.previewColumns);
        List<List<String>> rows = c.previewRows();
        int kept = Math.min(rows.size(), PREVIEW_ROWS);
        for (int i = 0; i < kept; i++) {
            preview.rows.add(new ArrayList<>(rows.get(i)));
        }
        preview.rowCount = Math.max(c.rowCount, rows.size());
        preview.truncated = preview.rowCount > kept;
        return preview;
    }

    private static CandidateView viewOf(Candidate c) {
        CandidateView view = new CandidateView();
        view.source = c.source;
        view.sql = c.sql;
        view.votes = c.votes;
        view.elapsedMicros = c.elapsedMicros;
        view.error = c.error;
        return view;
    }

    private static TraceEntry entryOf(StageTrace t, long receivedAtMillis) {
        TraceEntry entry = new TraceEntry();
        entry.stage = t.stage;
        entry.model = t.model;
        entry.latencyMs = t.latencyMillis;
        entry.llmCalls = t.llmCalls;
        entry.embeddingCalls = t.embeddingCalls;
        entry.calls = timingsOf(t, receivedAtMillis);
        entry.promptTokens = t.promptTokens;
        entry.cachedPromptTokens = t.cachedPromptTokens;
        entry.completionTokens = t.completionTokens;
        entry.retries = t.retries;
        entry.simulated = t.simulated;
        entry.journalHits = t.journalHits;
        entry.tokensSaved = t.tokensSaved;
        entry.truncatedReplies = t.truncatedReplies;
        entry.error = t.error;
        entry.outcome = t.outcome == null ? null : t.outcome.wireName();
        entry.modelError = t.modelError == null ? null : t.modelError.name();
        entry.feedbackUsed = idsOf(t.feedbackUsed);
        return entry;
    }

    /** Comma-separated ids as a list; null when none. */
    private static List<String> idsOf(String ids) {
        return ids == null || ids.isBlank() ? null : List.of(ids.split(","));
    }

    /** The stage's chat calls, then its embedding requests, timed from the question's arrival; null when none. */
    private static List<CallTiming> timingsOf(StageTrace t, long receivedAtMillis) {
        int calls = CallSpans.count(t.callSpans);
        int embeddings = CallSpans.count(t.embeddingSpans);
        if (calls + embeddings == 0) {
            return null;
        }
        List<CallTiming> timings = new ArrayList<>(calls + embeddings);
        for (int i = 0; i < calls; i++) {
            timings.add(new CallTiming(CallSpans.start(t.callSpans, i) - receivedAtMillis,
                    CallSpans.duration(t.callSpans, i), false));
        }
        for (int i = 0; i < embeddings; i++) {
            timings.add(new CallTiming(CallSpans.start(t.embeddingSpans, i) - receivedAtMillis,
                    CallSpans.duration(t.embeddingSpans, i), true));
        }
        return timings;
    }
}

package io.flowsql.pipeline;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * A deep copy of a {@link RequestContext} for a stage to work on (the async operators) and for Flink's chained
 * hand-overs: every list, map, array and nested object new, the strings (immutable) shared, the transient fields
 * (cancellation, journal scope, work pool) left out as the serializer leaves them out.
 */
final class ContextCopy {
    private ContextCopy() {}

    static RequestContext of(RequestContext from) {
        RequestContext c = new RequestContext();
        c.requestId = from.requestId;
        c.dialogueId = from.dialogueId;
        c.tenant = from.tenant;
        c.dbId = from.dbId;
        c.question = from.question;
        c.evidence = from.evidence;
        c.strategy = from.strategy;
        c.disabledStages = strings(from.disabledStages);
        c.origin = from.origin;
        c.receivedAtMillis = from.receivedAtMillis;
        c.journalOf = from.journalOf;
        if (from.history == null) {
            c.history = null;
        } else {
            c.history = new ArrayList<>(from.history.size());
            for (DialogueTurn t : from.history) {
                c.history.add(t == null ? null : new DialogueTurn(t.requestId, t.question, t.questionType, t.sql, t.summary));
            }
        }
        c.historySupplied = from.historySupplied;
        c.questionType = from.questionType;
        c.response = from.response;
        if (from.interpretations == null) {
            c.interpretations = null;
        } else {
            c.interpretations = new ArrayList<>(from.interpretations.size());
            for (Interpretation i : from.interpretations) {
                c.interpretations.add(i == null ? null : interpretation(i));
            }
        }
        c.retrievedTables = strings(from.retrievedTables);
        c.retrievedBrief = strings(from.retrievedBrief);
        c.schemaText = from.schemaText;
        c.linkedColumns = strings(from.linkedColumns);
        c.matchedValues = strings(from.matchedValues);
        c.subQuestions = strings(from.subQuestions);
        if (from.candidates == null) {
            c.candidates = null;
        } else {
            c.candidates = new ArrayList<>(from.candidates.size());
            for (Candidate k : from.candidates) {
                c.candidates.add(k == null ? null : candidate(k));
            }
        }
        c.finalSql = from.finalSql;
        c.notes = from.notes == null ? null : new HashMap<>(from.notes);
        c.status = from.status;
        c.failedStage = from.failedStage;
        c.failure = from.failure;
        c.error = from.error;
        if (from.trace == null) {
            c.trace = null;
        } else {
            c.trace = new ArrayList<>(from.trace.size());
            for (StageTrace t : from.trace) {
                c.trace.add(t == null ? null : trace(t));
            }
        }
        return c;
    }

    private static List<String> strings(List<String> items) {
        return items == null ? null : new ArrayList<>(items);
    }

    private static Interpretation interpretation(Interpretation from) {
        Interpretation i = new Interpretation(from.reading, from.sql);
        i.error = from.error;
        return i;
    }

    private static Candidate candidate(Candidate from) {
        Candidate k = new Candidate(from.source, from.sql);
        k.executed = from.executed;
        k.resultFingerprint = from.resultFingerprint;
        k.rowCount = from.rowCount;
        k.elapsedMicros = from.elapsedMicros;
        k.error = from.error;
        k.errorState = from.errorState;
        k.votes = from.votes;
        k.previewColumns = strings(from.previewColumns);
        if (from.preview == null) {
            k.preview = null;
        } else {
            k.preview = new ArrayList<>(from.preview.size());
            for (PreviewRow row : from.preview) {
                PreviewRow copy = null;
                if (row != null) {
                    copy = new PreviewRow();
                    copy.cells = strings(row.cells);
                }
                k.preview.add(copy);
            }
        }
        return k;
    }

    private static StageTrace trace(StageTrace from) {
        StageTrace t = new StageTrace(from.stage);
        t.model = from.model;
        t.latencyMillis = from.latencyMillis;
        t.llmCalls = from.llmCalls;
        t.callSpans = from.callSpans == null ? null : from.callSpans.clone();
        t.embeddingCalls = from.embeddingCalls;
        t.embeddingSpans = from.embeddingSpans == null ? null : from.embeddingSpans.clone();
        t.promptTokens = from.promptTokens;
        t.cachedPromptTokens = from.cachedPromptTokens;
        t.completionTokens = from.completionTokens;
        t.retries = from.retries;
        t.simulated = from.simulated;
        t.journalHits = from.journalHits;
        t.journalMisses = from.journalMisses;
        t.tokensSaved = from.tokensSaved;
        t.truncatedReplies = from.truncatedReplies;
        t.note = from.note;
        t.error = from.error;
        t.outcome = from.outcome;
        t.failure = from.failure;
        t.modelError = from.modelError;
        t.feedbackUsed = from.feedbackUsed;
        return t;
    }
}

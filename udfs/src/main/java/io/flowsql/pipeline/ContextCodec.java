package io.flowsql.pipeline;

import io.flowsql.llm.LlmErrorKind;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;

import static io.flowsql.pipeline.ContextWire.readCount;
import static io.flowsql.pipeline.ContextWire.readEnum;
import static io.flowsql.pipeline.ContextWire.readInt;
import static io.flowsql.pipeline.ContextWire.readSpans;
import static io.flowsql.pipeline.ContextWire.readString;
import static io.flowsql.pipeline.ContextWire.readStrings;
import static io.flowsql.pipeline.ContextWire.readVarLong;
import static io.flowsql.pipeline.ContextWire.writeCount;
import static io.flowsql.pipeline.ContextWire.writeEnum;
import static io.flowsql.pipeline.ContextWire.writeInt;
import static io.flowsql.pipeline.ContextWire.writeSpans;
import static io.flowsql.pipeline.ContextWire.writeString;
import static io.flowsql.pipeline.ContextWire.writeStrings;
import static io.flowsql.pipeline.ContextWire.writeVarLong;

/**
 * Wire format {@value #VERSION} of a {@link RequestContext} and what it holds, field by field in declaration order,
 * with no class names or field names (those the PojoSerializer wrote into every stored type description). A field
 * added to a state class must be added here and {@link #VERSION} raised (RequestContextSerializerTest fails until
 * both are done); reading an older version then goes in {@link #read} by its number. Format 2 added
 * {@link Candidate#errorState} after the candidate's error. Format 3 writes a context as format 2 did; what it adds is
 * the dialogue history in keyed state written by {@link DialogueTurnSerializer} in this format's turn encoding (the
 * PojoSerializer wrote it before).
 */
final class ContextCodec {
    /** The wire format's version; also the serializer snapshot's version. */
    static final int VERSION = 3;
    /** The oldest format this release reads. */
    static final int OLDEST = 1;
    /** The first format whose context bytes are those of {@link #VERSION}: a context of it needs no migration. */
    static final int SAME_CONTEXT_BYTES_SINCE = 2;
    /** The first format with {@link DialogueTurnSerializer} (earlier histories are the PojoSerializer's). */
    static final int TURN_SERIALIZER_SINCE = 3;

    private ContextCodec() {}

    static void write(RequestContext c, DataOutput out) throws IOException {
        write(c, out, VERSION);
    }

    /** Writes {@code c} in format {@code format} ({@link #OLDEST}..{@link #VERSION}; an older one leaves its later fields out). */
    static void write(RequestContext c, DataOutput out, int format) throws IOException {
        writeString(out, c.requestId);
        writeString(out, c.dialogueId);
        writeString(out, c.tenant);
        writeString(out, c.dbId);
        writeString(out, c.question);
        writeString(out, c.evidence);
        writeString(out, c.strategy);
        writeStrings(out, c.disabledStages);
        writeString(out, c.origin);
        writeVarLong(out, c.receivedAtMillis);
        writeString(out, c.journalOf);
        writeCount(out, c.history);
        if (c.history != null) {
            for (DialogueTurn t : c.history) {
                writeTurn(out, t);
            }
        }
        out.writeBoolean(c.historySupplied);
        writeString(out, c.questionType);
        writeString(out, c.response);
        writeCount(out, c.interpretations);
        if (c.interpretations != null) {
            for (Interpretation i : c.interpretations) {
                writeInterpretation(out, i);
            }
        }
        writeStrings(out, c.retrievedTables);
        writeStrings(out, c.retrievedBrief);
        writeString(out, c.schemaText);
        writeStrings(out, c.linkedColumns);
        writeStrings(out, c.matchedValues);
        writeStrings(out, c.subQuestions);
        writeCount(out, c.candidates);
        if (c.candidates != null) {
            for (Candidate k : c.candidates) {
                writeCandidate(out, k, format);
            }
        }
        writeString(out, c.finalSql);
        writeCount(out, c.notes == null ? null : c.notes.entrySet());
        if (c.notes != null) {
            for (Map.Entry<String, String> e : c.notes.entrySet()) {
                writeString(out, e.getKey());
                writeString(out, e.getValue());
            }
        }
        writeString(out, c.status);
        writeString(out, c.failedStage);
        writeEnum(out, c.failure);
        writeString(out, c.error);
        writeCount(out, c.trace);
        if (c.trace != null) {
            for (StageTrace t : c.trace) {
                writeTrace(out, t);
            }
        }
    }

    static RequestContext read(DataInput in) throws IOException {
        return read(in, VERSION);
    }

    /** Reads a context written in format {@code format}; a field that format lacks keeps its default. */
    static RequestContext read(DataInput in, int format) throws IOException {
        RequestContext c = new RequestContext();
        c.requestId = readString(in);
        c.dialogueId = readString(in);
        c.tenant = readString(in);
        c.dbId = readString(in);
        c.question = readString(in);
        c.evidence = readString(in);
        c.strategy = readString(in);
        c.disabledStages = readStrings(in);
        c.origin = readString(in);
        c.receivedAtMillis = readVarLong(in);
        c.journalOf = readString(in);
        int n = readCount(in);
        c.history = n < 0 ? null : new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            c.history.add(readTurn(in));
        }
        c.historySupplied = in.readBoolean();
        c.questionType = readString(in);
        c.response = readString(in);
        n = readCount(in);
        c.interpretations = n < 0 ? null : new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            c.interpretations.add(readInterpretation(in));
        }
        c.retrievedTables = readStrings(in);
        c.retrievedBrief = readStrings(in);
        c.schemaText = readString(in);
        c.linkedColumns = readStrings(in);
        c.matchedValues = readStrings(in);
        c.subQuestions = readStrings(in);
        n = readCount(in);
        c.candidates = n < 0 ? null : new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            c.candidates.add(readCandidate(in, format));
        }
        c.finalSql = readString(in);
        n = readCount(in);
        c.notes = n < 0 ? null : new HashMap<>(Math.max(4, n * 2));
        for (int i = 0; i < n; i++) {
            c.notes.put(readString(in), readString(in));
        }
        c.status = readString(in);
        c.failedStage = readString(in);
        c.failure = readEnum(in, FailureKind.class);
        c.error = readString(in);
        n = readCount(in);
        c.trace = n < 0 ? null : new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            c.trace.add(readTrace(in));
        }
        return c;
    }

    /** A turn or null: a presence flag and five strings (the context's history and the history in keyed state). */
    static void writeTurn(DataOutput out, DialogueTurn t) throws IOException {
        out.writeBoolean(t != null);
        if (t != null) {
            writeString(out, t.requestId);
            writeString(out, t.question);
            writeString(out, t.questionType);
            writeString(out, t.sql);
            writeString(out, t.summary);
        }
    }

    static DialogueTurn readTurn(DataInput in) throws IOException {
        if (!in.readBoolean()) {
            return null;
        }
        return new DialogueTurn(readString(in), readString(in), readString(in), readString(in), readString(in));
    }

    private static void writeInterpretation(DataOutput out, Interpretation i) throws IOException {
        out.writeBoolean(i != null);
        if (i != null) {
            writeString(out, i.reading);
            writeString(out, i.sql);
            writeString(out, i.error);
        }
    }

    private static Interpretation readInterpretation(DataInput in) throws IOException {
        if (!in.readBoolean()) {
            return null;
        }
        Interpretation i = new Interpretation(readString(in), readString(in));
        i.error = readString(in);
        return i;
    }

    private static void writeCandidate(DataOutput out, Candidate k, int format) throws IOException {
        out.writeBoolean(k != null);
        if (k == null) {
            return;
        }
        writeString(out, k.source);
        writeString(out, k.sql);
        out.writeBoolean(k.executed);
        writeString(out, k.resultFingerprint);
        writeInt(out, k.rowCount);
        writeVarLong(out, k.elapsedMicros);
        writeString(out, k.error);
        if (format >= 2) {
            writeString(out, k.errorState);
        }
        writeInt(out, k.votes);
        writeStrings(out, k.previewColumns);
        writeCount(out, k.preview);
        if (k.preview != null) {
            for (PreviewRow row : k.preview) {
                out.writeBoolean(row != null);
                if (row != null) {
                    writeStrings(out, row.cells);
                }
            }
        }
    }

    private static Candidate readCandidate(DataInput in, int format) throws IOException {
        if (!in.readBoolean()) {
            return null;
        }
        Candidate k = new Candidate(readString(in), readString(in));
        k.executed = in.readBoolean();
        k.resultFingerprint = readString(in);
        k.rowCount = readInt(in);
        k.elapsedMicros = readVarLong(in);
        k.error = readString(in);
        if (format >= 2) {
            k.errorState = readString(in);
        }
        k.votes = readInt(in);
        k.previewColumns = readStrings(in);
        int n = readCount(in);
        k.preview = n < 0 ? null : new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            PreviewRow row = null;
            if (in.readBoolean()) {
                row = new PreviewRow();
                row.cells = readStrings(in);
            }
            k.preview.add(row);
        }
        return k;
    }

    private static void writeTrace(DataOutput out, StageTrace t) throws IOException {
        out.writeBoolean(t != null);
        if (t == null) {
            return;
        }
        writeString(out, t.stage);
        writeString(out, t.model);
        writeVarLong(out, t.latencyMillis);
        writeInt(out, t.llmCalls);
        writeSpans(out, t.callSpans);
        writeInt(out, t.embeddingCalls);
        writeSpans(out, t.embeddingSpans);
        writeInt(out, t.promptTokens);
        writeInt(out, t.cachedPromptTokens);
        writeInt(out, t.completionTokens);
        writeInt(out, t.retries);
        out.writeBoolean(t.simulated);
        writeInt(out, t.journalHits);
        writeInt(out, t.journalMisses);
        writeInt(out, t.tokensSaved);
        writeInt(out, t.truncatedReplies);
        writeString(out, t.note);
        writeString(out, t.error);
        writeEnum(out, t.outcome);
        writeEnum(out, t.failure);
        writeEnum(out, t.modelError);
        writeString(out, t.feedbackUsed);
    }

    private static StageTrace readTrace(DataInput in) throws IOException {
        if (!in.readBoolean()) {
            return null;
        }
        StageTrace t = new StageTrace(readString(in));
        t.model = readString(in);
        t.latencyMillis = readVarLong(in);
        t.llmCalls = readInt(in);
        t.callSpans = readSpans(in);
        t.embeddingCalls = readInt(in);
        t.embeddingSpans = readSpans(in);
        t.promptTokens = readInt(in);
        t.cachedPromptTokens = readInt(in);
        t.completionTokens = readInt(in);
        t.retries = readInt(in);
        t.simulated = in.readBoolean();
        t.journalHits = readInt(in);
        t.journalMisses = readInt(in);
        t.tokensSaved = readInt(in);
        t.truncatedReplies = readInt(in);
        t.note = readString(in);
        t.error = readString(in);
        t.outcome = readEnum(in, StageOutcome.class);
        t.failure = readEnum(in, FailureKind.class);
        t.modelError = readEnum(in, LlmErrorKind.class);
        t.feedbackUsed = readString(in);
        return t;
    }
}

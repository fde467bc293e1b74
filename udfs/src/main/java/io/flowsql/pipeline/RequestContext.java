package io.flowsql.pipeline;

import org.apache.flink.api.common.typeinfo.TypeInfo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything one question carries from stage to stage: the question and its dialogue history, what
 * each stage found (type, linked schema, decomposition, candidates, final SQL) and the trace. Flink serializes it
 * with {@link RequestContextSerializer} (a compact format, not the PojoSerializer): a field added here, or to the
 * classes it holds, goes into {@link ContextCodec} and {@link ContextCopy} too (RequestContextSerializerTest fails
 * until it does). A stage reads what earlier stages wrote and adds its own part.
 */
@TypeInfo(RequestContextTypeInfo.Factory.class)
public class RequestContext {
    // --- the question
    public String requestId;
    public String dialogueId;
    /** The tenant the question asks as (its own field, or derived from the dialogue id); null when none. */
    public String tenant;
    public String dbId;
    public String question;
    public String evidence;
    /** Strategy preset name (mag-sql, sqlfix, opensearch, mmsql, full). */
    public String strategy;
    /** Stages switched off for this request (by stage name), for ablations. */
    public List<String> disabledStages = new ArrayList<>();
    /** Where the question came from, for tracing: topic/partition/offset or a file line. */
    public String origin;
    public long receivedAtMillis;
    /** The request id whose stage journal this request reads and extends; null means its own (see {@link #journalId}). */
    public String journalOf;

    // --- dialogue
    public List<DialogueTurn> history = new ArrayList<>();
    /** True when the question brought its own history (the question event's {@code history}): the job's is not used. */
    public boolean historySupplied;

    // --- findings of the stages
    public String questionType;
    /** Reply text for unanswerable / improper turns, the clarification for ambiguous ones. */
    public String response;
    public List<Interpretation> interpretations = new ArrayList<>();
    /**
     * The tables schema retrieval kept for this question's prompts (schema.retrieve); null when the stage did not run,
     * in which case the agents see the whole schema the question's access policy allows.
     */
    public List<String> retrievedTables;
    /** Of {@link #retrievedTables}, those shown in brief (column names, types and keys only); null or empty: none. */
    public List<String> retrievedBrief;
    /** The schema text the generators use (full, soft or pruned). */
    public String schemaText;
    /** Linked columns "table.column", best first. */
    public List<String> linkedColumns = new ArrayList<>();
    /** Database values the question mentions, "table.column = 'value'". */
    public List<String> matchedValues = new ArrayList<>();
    public List<String> subQuestions = new ArrayList<>();
    public List<Candidate> candidates = new ArrayList<>();
    public String finalSql;
    /** Free-form notes stages leave for later stages (e.g. reviewer verdicts), by key. */
    public Map<String, String> notes = new HashMap<>();

    // --- outcome
    /**
     * The {@link AnswerStatus}'s wire name once a stage settled the request, else null. Read and set it through
     * {@link #hasStatus} and {@link #settle}; it stays a string field so savepoints written before the enum restore.
     */
    public String status;
    public String failedStage;
    /** Why the request failed, as a type; null unless {@link #status} is failed. */
    public FailureKind failure;
    public String error;
    public List<StageTrace> trace = new ArrayList<>();

    /** What the stage now working on this request started, for its timeout to cancel; never serialized. */
    public transient Cancellation cancellation;

    public RequestContext() {}

    /** The id the stage journal keeps this request's model replies under: {@link #journalOf} if set, else the request id. */
    public String journalId() {
        return journalOf != null && !journalOf.isBlank() ? journalOf : requestId;
    }

    /** True once a stage settled the request (refused, failed, or answered without SQL); later stages skip it. */
    public boolean isSettled() {
        return status != null;
    }

    /** Settles the request as {@code outcome} (answered, clarification, refused); failures go through {@link #fail}. */
    public void settle(AnswerStatus outcome) {
        this.status = outcome.wireName();
    }

    public boolean hasStatus(AnswerStatus outcome) {
        return outcome.wireName().equals(status);
    }

    /** Refuses the request as {@code kind} (e.g. forbidden by its access policy): status refused, with the kind and why. */
    public void refuse(String stage, FailureKind kind, String message) {
        settle(AnswerStatus.REFUSED);
        this.failedStage = stage;
        this.failure = kind;
        this.error = message;
        this.response = message;
    }

    public void fail(String stage, FailureKind kind, String message) {
        settle(AnswerStatus.FAILED);
        this.failedStage = stage;
        this.failure = kind;
        this.error = message;
    }
}

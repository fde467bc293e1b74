package io.flowsql.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.ArrayList;
import java.util.List;

/** An answer as written to the {@code answers} topic (schemas/answers.schema.json), keyed by dialogue id. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AnswerEvent {
    public String requestId;
    public String dialogueId;
    public String dbId;
    /**
     * The tenant the question was answered for (the one it declared, else the one its dialogue id yields under
     * {@code tenant.from-dialogue-id}); its access policy decided what the answer could read. Null when none.
     */
    public String tenant;
    public String question;
    public String questionType;
    /** answered | clarification | refused | failed */
    public String status;
    public String sql;
    public ResultPreview result;
    /** How the result can be drawn (computed from its columns and shape, no model); null when there is no result. */
    public ChartSpec chart;
    /** The answer in plain words, in the question's language (stage answer.summarize); null when not asked for. */
    public String summary;
    public String response;
    public List<InterpretationView> interpretations = new ArrayList<>();
    public List<CandidateView> candidates = new ArrayList<>();
    public List<TraceEntry> trace = new ArrayList<>();
    /** The knowledge ids (business definitions) whose text the prompts carried as evidence; null when none. */
    public List<String> knowledgeUsed;
    /** The tables schema retrieval kept for the prompts when it cut the schema; null when the prompts saw it whole. */
    public List<String> retrievedTables;
    /** True when any stage's answer came from the simulated LLM. */
    public boolean simulated;
    public String failedStage;
    /** Why the request failed, as a type ({@code model}, {@code timeout}, {@code no_sql}, {@code sql_error}, {@code unserved}, {@code internal}, ...); null unless failed. */
    public String errorKind;
    public String error;
    /** ISO-8601 instant the answer was made. */
    public String answeredAt;

    public AnswerEvent() {}
}

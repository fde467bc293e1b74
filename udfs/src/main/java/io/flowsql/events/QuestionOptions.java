package io.flowsql.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.ArrayList;
import java.util.List;

/** Per-request overrides a client may send with a question, so one topic can serve several strategies and ablations. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class QuestionOptions {
    /** Strategy preset name (mag-sql, sqlfix, opensearch, mmsql, full); null means the job's default. */
    public String strategy;
    /** How many candidates a sampling generator should draw; null means the strategy's default. */
    public Integer candidates;
    /** Stage names switched off for this request. */
    public List<String> disabledStages = new ArrayList<>();
    /**
     * Re-use (and extend) the stage journal of this earlier request id instead of this request's own, e.g. the
     * same question of an earlier evaluation run: stages journaled there are not asked again. Null: its own.
     */
    public String journalOf;
    /**
     * A mode per stage for this request (stage name to mode, e.g. {@code opensearch.align: rules}), for ablations of a
     * stage that can work in more than one way; the questions schema lists the stages and their modes. Null: defaults.
     */
    public java.util.Map<String, String> stageModes;
    /**
     * True: the answer gets a plain-language summary (stage answer.summarize); false: none even when the preset writes
     * them; null: the preset decides (job option agent.summarize.presets).
     */
    public Boolean summarize;

    public QuestionOptions() {}
}

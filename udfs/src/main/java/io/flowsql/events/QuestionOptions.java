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

    public QuestionOptions() {}
}

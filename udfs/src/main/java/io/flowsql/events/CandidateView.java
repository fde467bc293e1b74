package io.flowsql.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** One candidate SQL the strategy considered, with its votes, run time and error, for auditing an answer. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CandidateView {
    public String source;
    public String sql;
    public int votes;
    public long elapsedMicros;
    public String error;

    public CandidateView() {}
}

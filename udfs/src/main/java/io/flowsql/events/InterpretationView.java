package io.flowsql.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** One reading of an ambiguous question with its SQL, as the answers topic carries it. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class InterpretationView {
    public String reading;
    public String sql;

    public InterpretationView() {}

    public InterpretationView(String reading, String sql) {
        this.reading = reading;
        this.sql = sql;
    }
}

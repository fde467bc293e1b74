package io.flowsql.pipeline;

/** One reading of an ambiguous question with the SQL that answers it. */
public class Interpretation {
    public String reading;
    public String sql;
    public String error;

    public Interpretation() {}

    public Interpretation(String reading, String sql) {
        this.reading = reading;
        this.sql = sql;
    }
}

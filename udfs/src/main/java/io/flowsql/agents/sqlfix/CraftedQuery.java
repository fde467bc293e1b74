package io.flowsql.agents.sqlfix;

/** One paraphrase the query crafter wrote and the SQL generated for it (null with the error when generation failed). */
public record CraftedQuery(String paraphrase, String sql, String error) {
    public boolean hasSql() {
        return sql != null;
    }
}

package io.flowsql.agents.sqlfix;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One repair (SQLFixAgent §3.3): the question, the SQL that was wrong, the SQL that replaced it and what was wrong, so
 * later requests with similar questions can learn from it. {@code seededFrom} names where a repair built beforehand
 * came from (e.g. {@code DAIL-SQL+GPT-4.txt#17}: a published prediction whose result differed from the gold one, with
 * the gold SQL as the fix, both executed); null for a repair the refiner made itself.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RepairRecord(String dbId, String question, String wrongSql, String fixedSql, String whatWasWrong,
                           String seededFrom) {

    /** A repair the refiner made during a run. */
    public RepairRecord(String dbId, String question, String wrongSql, String fixedSql, String whatWasWrong) {
        this(dbId, question, wrongSql, fixedSql, whatWasWrong, null);
    }

    /** Whether this repair was built beforehand from verified data rather than learned during a run. */
    public boolean seeded() {
        return seededFrom != null;
    }
}

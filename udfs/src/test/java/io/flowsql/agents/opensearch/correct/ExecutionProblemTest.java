package io.flowsql.agents.opensearch.correct;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.pipeline.Candidate;
import io.flowsql.sql.engine.DatabaseEngine;
import org.junit.jupiter.api.Test;

/**
 * OpenSearch-SQL's corrector classes a failed candidate by the SQLState the candidate kept before its error's wording,
 * as MAG-SQL's refiner does: wording that names another fault (or none, in another language) does not decide when the
 * engine's state names one.
 */
class ExecutionProblemTest {
    private static final String QUESTION = "What are the names of the singers?";

    @Test
    void theStateDecidesOverWordingThatNamesAnotherFault() {
        // BIRD-style names hold spaces: a missing column "function name" is worded like a missing function
        Candidate c = failed("RUNTIME: ERROR: column \"function name\" does not exist", "42703");
        assertThat(kind(c, DatabaseEngine.POSTGRESQL)).isEqualTo(ErrorClass.SCHEMA);
        c.errorState = null;
        assertThat(kind(c, DatabaseEngine.POSTGRESQL)).as("by its wording alone").isEqualTo(ErrorClass.SYNTAX);
    }

    @Test
    void theStateDecidesWhereTheWordingIsInAnotherLanguage() {
        Candidate c = failed("RUNTIME: FEHLER: Spalte »nme« existiert nicht", "42703");
        assertThat(kind(c, DatabaseEngine.POSTGRESQL)).isEqualTo(ErrorClass.SCHEMA);
        Candidate grouping = failed("RUNTIME: FEHLER: Spalte »singer.name« muss in der GROUP-BY-Klausel erscheinen", "42803");
        assertThat(kind(grouping, DatabaseEngine.POSTGRESQL)).isEqualTo(ErrorClass.SYNTAX);
        Candidate table = failed("RUNTIME: (conn=7) La table 'concert_singer.singers' n'existe pas", "42S02");
        assertThat(kind(table, DatabaseEngine.MARIADB)).isEqualTo(ErrorClass.SCHEMA);
        table.errorState = null;
        assertThat(kind(table, DatabaseEngine.MARIADB)).as("by its wording alone").isEqualTo(ErrorClass.FAILED);
    }

    @Test
    void anAdoptedAttemptKeepsItsState() {
        Candidate from = failed("RUNTIME: FEHLER: Spalte »nme« existiert nicht", "42703");
        Candidate to = new Candidate("x", "SELECT 1");
        ExecutionCorrector.adopt(from, to);
        assertThat(to.errorState).isEqualTo("42703");
        Candidate copy = new Candidate("y", from.sql);
        copy.takeResultOf(from);
        assertThat(copy.errorState).isEqualTo("42703");
    }

    private static ErrorClass kind(Candidate c, DatabaseEngine engine) {
        return ExecutionProblem.of(c, QUESTION, engine).orElseThrow().kind();
    }

    private static Candidate failed(String error, String state) {
        Candidate c = new Candidate("opensearch.generate#1", "SELECT nme FROM singer");
        c.executed = true;
        c.error = error;
        c.errorState = state;
        return c;
    }
}

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
        classes(DatabaseEngine.POSTGRESQL, "RUNTIME: ERROR: column \"function name\" does not exist", "42703",
                ErrorClass.SCHEMA, ErrorClass.SYNTAX);
    }

    @Test
    void theStateDecidesWhereTheWordingIsInAnotherLanguage() {
        classes(DatabaseEngine.POSTGRESQL, "RUNTIME: FEHLER: Spalte »nme« existiert nicht", "42703",
                ErrorClass.SCHEMA, ErrorClass.FAILED);
        classes(DatabaseEngine.POSTGRESQL, "RUNTIME: FEHLER: Spalte »singer.name« muss in der GROUP-BY-Klausel erscheinen",
                "42803", ErrorClass.SYNTAX, ErrorClass.FAILED);
        classes(DatabaseEngine.MARIADB, "RUNTIME: (conn=7) La table 'concert_singer.singers' n'existe pas", "42S02",
                ErrorClass.SCHEMA, ErrorClass.FAILED);
    }

    /** The class of a candidate failed with {@code error} and {@code state}, and of the same error without its state. */
    private static void classes(DatabaseEngine engine, String error, String state, ErrorClass byState, ErrorClass byWording) {
        Candidate c = failed(error, state);
        assertThat(kind(c, engine)).as("with SQLState " + state).isEqualTo(byState);
        c.errorState = null;
        assertThat(kind(c, engine)).as("by its wording alone").isEqualTo(byWording);
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

package io.flowsql.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SqlError;
import org.junit.jupiter.api.Test;

/** Candidate execution and finalization on a real Spider database. */
class CandidateRunnerTest {
    private final CandidateRunner runner = new CandidateRunner(SpiderAgentParts.ROOM);

    @Test
    void fillsResultFieldsAndAPreviewOfTenRows() {
        Candidate c = runner.run("world_1", new Candidate("magsql", "SELECT Name, Population FROM city ORDER BY Population DESC"));
        assertThat(c.executed).isTrue();
        assertThat(c.error).isNull();
        assertThat(c.rowCount).isGreaterThan(10);
        assertThat(c.previewColumns).containsExactly("Name", "Population");
        assertThat(c.previewRows()).hasSize(10);
        assertThat(c.previewRows().get(0)).containsExactly("Mumbai (Bombay)", "10500000");
        assertThat(c.resultFingerprint).isNotBlank();
        Candidate same = runner.run("world_1", new Candidate("x", "SELECT Population, Name FROM city"));
        assertThat(same.resultFingerprint).isEqualTo(c.resultFingerprint);
    }

    @Test
    void whatACandidateRecordedReadsBackAsItsExecutionResult() {
        Candidate ok = runner.run("world_1", new Candidate("x", "SELECT Name, Population FROM city ORDER BY Population DESC"));
        ExecutionResult again = CandidateRunner.recorded(ok);
        assertThat(again.ok()).isTrue();
        assertThat(again.columns()).containsExactly("Name", "Population");
        assertThat(again.rows()).hasSize(10);
        assertThat(again.rows().get(0)).containsExactly("Mumbai (Bombay)", "10500000");
        assertThat(again.rowCount()).isEqualTo(ok.rowCount);
        assertThat(again.truncated()).isTrue();
        Candidate bad = runner.run("concert_singer", new Candidate("x", "SELECT nope FROM singer"));
        ExecutionResult failed = CandidateRunner.recorded(bad);
        assertThat(failed.error().kind()).isEqualTo(SqlError.Kind.INVALID_SQL);
        assertThat(failed.error().toString()).isEqualTo(bad.error);
    }

    @Test
    void recordsTheErrorOfABadCandidate() {
        Candidate c = runner.run("concert_singer", new Candidate("x", "SELECT nope FROM singer"));
        assertThat(c.executed).isTrue();
        assertThat(c.error).contains("nope");
        assertThat(c.resultFingerprint).isNull();
        Candidate refused = runner.run("concert_singer", new Candidate("x", "DELETE FROM singer"));
        assertThat(refused.error).startsWith("REFUSED");
    }

    @Test
    void executeStageRunsOnlyWhatIsNotYetExecutedAndFinalizePicksTheBest() {
        RequestContext ctx = new RequestContext();
        ctx.dbId = "concert_singer";
        Candidate done = new Candidate("old", "SELECT 1");
        done.executed = true;
        done.error = "kept";
        ctx.candidates.add(done);
        ctx.candidates.add(new Candidate("a", "SELECT Name FROM singer WHERE Country = 'Mars'"));
        ctx.candidates.add(new Candidate("b", "SELECT Name FROM singer WHERE Country = 'France'"));
        ctx.candidates.add(new Candidate("c", "SELECT Nme FROM singer"));
        new ExecuteCandidatesStage(runner).applyAs("candidates.execute", ctx).join();
        assertThat(done.error).isEqualTo("kept");
        assertThat(ctx.trace.get(0).note).isEqualTo("executed 3, failed 1");
        new FinalizeStage().applyAs("answer.finalize", ctx).join();
        assertThat(ctx.status).isEqualTo("answered");
        assertThat(ctx.finalSql).isEqualTo("SELECT Name FROM singer WHERE Country = 'France'");
        assertThat(ctx.notes).containsEntry("final.source", "b");
    }

    @Test
    void aQuestionsDuplicateCandidatesRunOnceAndEachTakesTheResult() {
        RequestContext ctx = new RequestContext();
        ctx.dbId = "concert_singer";
        String france = "SELECT Name FROM singer WHERE Country = 'France'";
        ctx.candidates.add(new Candidate("gen#0", france));
        ctx.candidates.add(new Candidate("gen#1", "SELECT count(*) FROM singer"));
        ctx.candidates.add(new Candidate("gen#2", france));
        ctx.candidates.add(new Candidate("gen#3", france));
        new ExecuteCandidatesStage(runner).applyAs("candidates.execute", ctx).join();

        assertThat(ctx.trace.get(0).note).as("two distinct SQL statements ran").isEqualTo("executed 2, failed 0");
        assertThat(ctx.candidates).allMatch(c -> c.executed && c.error == null && c.resultFingerprint != null);
        Candidate first = ctx.candidates.get(0);
        assertThat(ctx.candidates.get(2).resultFingerprint).isEqualTo(first.resultFingerprint);
        assertThat(ctx.candidates.get(3).previewRows()).isEqualTo(first.previewRows()).isNotEmpty();
        assertThat(ctx.candidates.get(3).source).as("a duplicate keeps its own source").isEqualTo("gen#3");
        assertThat(ctx.candidates.get(1).resultFingerprint).isNotEqualTo(first.resultFingerprint);
    }

    @Test
    void finalizeKeepsAChosenSqlAndFailsWithoutAny() {
        RequestContext chosen = new RequestContext();
        chosen.candidates.add(new Candidate("x", "SELECT 1"));
        chosen.candidates.add(new Candidate("y", "SELECT 2"));
        chosen.finalSql = "SELECT 1";
        new FinalizeStage().applyAs("answer.finalize", chosen).join();
        assertThat(chosen.finalSql).isEqualTo("SELECT 1");
        assertThat(chosen.notes).containsEntry("final.source", "x");

        RequestContext none = new RequestContext();
        new FinalizeStage().applyAs("answer.finalize", none).join();
        assertThat(none.status).isEqualTo("failed");
        assertThat(none.failedStage).isEqualTo("answer.finalize");
        assertThat(none.error).isEqualTo("no stage produced SQL");
    }
}

package io.flowsql.agents.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.CandidateRunner;
import io.flowsql.pipeline.ExecuteCandidatesStage;
import io.flowsql.pipeline.RequestContext;
import org.junit.jupiter.api.Test;

/** The vote over candidates really executed on a Spider database. */
class VoteTest {
    private static final String SLOW_PREFIX =
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 400000) ";

    private RequestContext executed(String... sqls) {
        RequestContext ctx = new RequestContext();
        ctx.dbId = "concert_singer";
        for (int i = 0; i < sqls.length; i++) {
            ctx.candidates.add(new Candidate("opensearch#" + i, sqls[i]));
        }
        new ExecuteCandidatesStage(new CandidateRunner(SpiderAgentParts.ROOM)).applyAs("candidates.execute", ctx).join();
        return ctx;
    }

    @Test
    void theLargestGroupOfEqualResultsWins() {
        RequestContext ctx = executed(
                "SELECT Name FROM singer WHERE Age > 40",
                "SELECT Name FROM singer WHERE Age >= 41",
                "SELECT name FROM singer WHERE age > 40 ORDER BY Name",
                "SELECT Name FROM singer WHERE Age > 30");
        new OpenSearchVoteStage().applyAs("opensearch.vote", ctx).join();
        assertThat(ctx.candidates).extracting(c -> c.votes).containsExactly(3, 3, 3, 1);
        assertThat(ctx.finalSql).isIn(ctx.candidates.get(0).sql, ctx.candidates.get(1).sql, ctx.candidates.get(2).sql);
        assertThat(ctx.notes).containsEntry("vote.agreement", "0.75")
                .containsEntry("vote.votes", "opensearch#0=3,opensearch#1=3,opensearch#2=3,opensearch#3=1");
    }

    @Test
    void aTieGoesToTheFasterGroup() {
        RequestContext ctx = executed(
                SLOW_PREFIX + "SELECT count(*) FROM c",
                "SELECT count(*) FROM singer");
        assertThat(ctx.candidates.get(0).elapsedMicros).isGreaterThan(ctx.candidates.get(1).elapsedMicros);
        new OpenSearchVoteStage().applyAs("opensearch.vote", ctx).join();
        assertThat(ctx.finalSql).isEqualTo("SELECT count(*) FROM singer");
        assertThat(ctx.notes).containsEntry("vote.winner", "opensearch#1").containsEntry("vote.agreement", "0.50");
    }

    @Test
    void emptyAndFailedResultsComeLast() {
        RequestContext ctx = executed(
                "SELECT Name FROM singer WHERE Country = 'Atlantis'",
                "SELECT Name FROM singer WHERE Country = 'Mars'",
                "SELECT Nme FROM singer",
                "SELECT Nme FROM singer",
                "SELECT Name FROM singer WHERE Country = 'France'");
        new OpenSearchVoteStage().applyAs("opensearch.vote", ctx).join();
        assertThat(ctx.finalSql).isEqualTo("SELECT Name FROM singer WHERE Country = 'France'");
        assertThat(ctx.candidates).extracting(c -> c.votes).containsExactly(2, 2, 0, 0, 1);
        assertThat(ctx.candidates.get(2).error).contains("INVALID_SQL");
    }

    @Test
    void onlyFailedCandidatesStillNameAWinnerButNoVotes() {
        RequestContext ctx = executed("SELECT Nme FROM singer");
        new OpenSearchVoteStage().applyAs("opensearch.vote", ctx).join();
        assertThat(ctx.candidates.get(0).votes).isZero();
        assertThat(ctx.notes).containsEntry("vote.agreement", "0.00");
    }
}

package io.flowsql.agents.opensearch;

import io.flowsql.pipeline.Candidate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * OpenSearch-SQL §3.5 self-consistency vote over executed candidates: candidates with the same result form
 * a group, the largest group wins, ties go to the group that ran fastest; groups with an empty result rank
 * after those with rows, and failed candidates come last (no votes).
 */
public final class ResultVote {

    /** The winner (absent when there were no candidates) and the share of candidates that agreed with it. */
    public record Outcome(Optional<Candidate> winner, int winnerVotes, double agreement) {}

    /** Sets each candidate's votes (its group's size, 0 when it failed) and returns the winner. */
    public Outcome vote(List<Candidate> candidates) {
        Map<String, List<Candidate>> groups = new LinkedHashMap<>();
        List<Candidate> failed = new ArrayList<>();
        for (Candidate c : candidates) {
            if (!c.executed || c.error != null || c.resultFingerprint == null) {
                c.votes = 0;
                failed.add(c);
            } else {
                groups.computeIfAbsent(c.resultFingerprint, k -> new ArrayList<>()).add(c);
            }
        }
        groups.values().forEach(group -> group.forEach(c -> c.votes = group.size()));
        Comparator<List<Candidate>> ranking = Comparator
                .comparing((List<Candidate> g) -> g.get(0).rowCount == 0)
                .thenComparing(g -> -g.size())
                .thenComparingLong(ResultVote::fastest);
        Optional<Candidate> winner = groups.values().stream().sorted(ranking).findFirst()
                .flatMap(g -> g.stream().min(Comparator.comparingLong(c -> c.elapsedMicros)));
        if (winner.isEmpty() && !failed.isEmpty()) {
            winner = Optional.of(failed.get(0));
        }
        int votes = winner.map(c -> c.votes).orElse(0);
        double agreement = candidates.isEmpty() ? 0 : (double) votes / candidates.size();
        return new Outcome(winner, votes, agreement);
    }

    private static long fastest(List<Candidate> group) {
        return group.stream().mapToLong(c -> c.elapsedMicros).min().orElse(Long.MAX_VALUE);
    }
}

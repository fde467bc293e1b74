package io.flowsql.pipeline;

import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SqlError;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which of a request's candidates an execution stage runs: each distinct SQL once. The same SQL on the same read-only
 * database gives the same result, and a question's samples are often the same SQL, so a candidate whose SQL ran before
 * with a result that would repeat takes that result, the first candidate of each other SQL runs, and its twins take
 * its result afterwards. Each candidate keeps its own source, so each still counts in the vote. Used alike by the plain
 * pipeline ({@link ExecuteCandidatesStage}) and the job's candidate fan-out and gather.
 */
public final class CandidateRuns {
    /** Failures the same SQL meets again; a time-out, an interruption or a failure while running may not repeat. */
    private static final Set<SqlError.Kind> REPEATING = EnumSet.of(
            SqlError.Kind.REFUSED, SqlError.Kind.INVALID_SQL, SqlError.Kind.UNKNOWN_DATABASE);

    private CandidateRuns() {}

    /**
     * The candidates to run, as indices: the first not yet executed of each SQL that has no earlier result to reuse.
     * Candidates whose SQL has such a result take it now ({@link #reused}).
     */
    public record Plan(List<Integer> toRun, int reused) {}

    public static Plan plan(List<Candidate> candidates) {
        Map<String, Candidate> reusable = reusableRuns(candidates); // a HashMap and a HashSet hold one null SQL too
        List<Integer> toRun = new ArrayList<>();
        Set<String> running = new HashSet<>();
        int reused = 0;
        for (int i = 0; i < candidates.size(); i++) {
            Candidate c = candidates.get(i);
            if (c.executed) {
                continue;
            }
            Candidate earlier = reusable.get(c.sql);
            if (earlier != null) {
                c.takeResultOf(earlier);
                reused++;
            } else if (running.add(c.sql)) {
                toRun.add(i);
            }
        }
        return new Plan(toRun, reused);
    }

    /**
     * After the candidates at {@code ran} were executed: every candidate not executed whose SQL is one of theirs takes
     * that run's result, whatever it was (the same moment, the same load). Candidates left unexecuted had no run.
     */
    public static void takeTwinResults(List<Candidate> candidates, Collection<Integer> ran) {
        Map<String, Candidate> bySql = new HashMap<>();
        for (int i : ran) {
            if (i < candidates.size() && candidates.get(i).executed) {
                bySql.putIfAbsent(candidates.get(i).sql, candidates.get(i));
            }
        }
        for (Candidate c : candidates) {
            Candidate twin = c.executed ? null : bySql.get(c.sql);
            if (twin != null) {
                c.takeResultOf(twin);
            }
        }
    }

    /** By SQL, the first executed candidate whose result another run would repeat: clean, or a repeating failure. */
    private static Map<String, Candidate> reusableRuns(List<Candidate> candidates) {
        Map<String, Candidate> bySql = new HashMap<>();
        for (Candidate c : candidates) {
            if (c.executed && !bySql.containsKey(c.sql)) {
                ExecutionResult recorded = CandidateRunner.recorded(c);
                if (recorded.ok() || REPEATING.contains(recorded.error().kind())) {
                    bySql.put(c.sql, c);
                }
            }
        }
        return bySql;
    }
}

package io.flowsql.benchmarks.eval.score;

import io.flowsql.benchmarks.eval.metrics.StageCost;

import java.util.List;

/**
 * One predicted answer as read from any prediction format, before it is matched to its question.
 *
 * @param key            the item id it answers (answers files), or null when known only by position
 * @param ordinal        its position in the benchmark's order (BIRD's idx, the line of a Spider file), or -1
 * @param sql            predicted SQL; empty when the system answered without SQL
 * @param questionType   the type the system detected; null when the format has none
 * @param stages         per-stage cost from the answer's trace (answers files only)
 * @param readingSqls    for a clarification (ambiguous turn) without one SQL: the SQL of each reading it offered
 * @param reply          the system's text answer (a clarification, a refusal), for the RQS judge; may be null
 * @param unreadable     why its line could not be read (not UTF-8, not JSON), naming the line; null when it was read
 */
public record Prediction(String key, int ordinal, String sql, String questionType, List<StageCost> stages,
                         List<String> readingSqls, String reply, String unreadable) {

    public Prediction {
        sql = sql == null ? "" : sql.strip();
        stages = stages == null ? List.of() : List.copyOf(stages);
        readingSqls = readingSqls == null ? List.of()
                : readingSqls.stream().filter(r -> r != null && !r.isBlank()).map(String::strip).toList();
    }

    public Prediction(String key, int ordinal, String sql, String questionType, List<StageCost> stages,
                      List<String> readingSqls) {
        this(key, ordinal, sql, questionType, stages, readingSqls, null, null);
    }

    public Prediction(String key, int ordinal, String sql, String questionType, List<StageCost> stages) {
        this(key, ordinal, sql, questionType, stages, List.of(), null, null);
    }

    /** A line that could not be read: scored wrong with this reason. */
    public static Prediction unreadable(String key, int ordinal, String reason) {
        return new Prediction(key, ordinal, "", null, List.of(), List.of(), null, reason);
    }

    /** The type to score: the system's own, or answerable when it gave SQL and none otherwise. */
    public String effectiveType() {
        if (questionType != null && !questionType.isBlank()) {
            return questionType;
        }
        return sql.isEmpty() ? null : "answerable";
    }
}

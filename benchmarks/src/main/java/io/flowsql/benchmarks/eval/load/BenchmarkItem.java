package io.flowsql.benchmarks.eval.load;

/**
 * One question of any benchmark in one shape, so scoring and running never care where it came from.
 *
 * @param id           stable id within its benchmark (Spider: dev position; BIRD: question_id; CoSQL: "dialogue-turn")
 * @param ordinal      position in the benchmark file's order (the order of Spider-style prediction files)
 * @param dbId         database id
 * @param question      the user's question
 * @param evidence      BIRD's external knowledge; empty elsewhere
 * @param goldSql       the gold SQL; empty when the turn owes no SQL (CoSQL improper/unanswerable turns)
 * @param difficulty    BIRD difficulty (simple/moderate/challenging) or Spider hardness (easy/medium/hard/extra)
 * @param dialogueId    dialogue this turn belongs to; null for single questions
 * @param turnIndex     0-based index of the user turn within its dialogue; 0 for single questions
 * @param questionType  MMSQL type (answerable, ambiguous, unanswerable, improper); null when the benchmark has none
 */
public record BenchmarkItem(
        String id,
        int ordinal,
        String dbId,
        String question,
        String evidence,
        String goldSql,
        String difficulty,
        String dialogueId,
        int turnIndex,
        String questionType) {

    public BenchmarkItem {
        evidence = evidence == null ? "" : evidence;
        goldSql = goldSql == null ? "" : goldSql.strip();
        difficulty = difficulty == null || difficulty.isBlank() ? "unknown" : difficulty;
    }

    /** Whether the benchmark expects SQL for this question. */
    public boolean owesSql() {
        return !goldSql.isEmpty();
    }
}

package io.flowsql.benchmarks.eval.score;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The prediction file formats people exchange, each with its reader; {@link #detect} guesses from the file name. */
public enum PredictionFormat {
    /** BIRD's {@code predict_dev.json}: {"idx": "SQL\t----- bird -----\tdb_id"}. */
    BIRD_JSON,
    /** One SQL per line in the benchmark's order (Spider's evaluator input); text after a tab is ignored. */
    SQL_LINES,
    /** The project's answers JSONL (one AnswerEvent per line). */
    ANSWERS_JSONL,
    /** MMSQL's output files: the test suite's dialogues, each system turn with {@code predict}/{@code predict_sql} and {@code predict_type}. */
    MMSQL_JSON;

    public List<Prediction> read(Path file) {
        return switch (this) {
            case BIRD_JSON -> PredictionReaders.birdJson(file);
            case SQL_LINES -> PredictionReaders.sqlLines(file);
            case ANSWERS_JSONL -> PredictionReaders.answersJsonl(file);
            case MMSQL_JSON -> PredictionReaders.mmsqlJson(file);
        };
    }

    public static PredictionFormat detect(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".jsonl")) {
            return ANSWERS_JSONL;
        }
        if (name.endsWith(".json")) {
            return PredictionReaders.jsonArray(file) ? MMSQL_JSON : BIRD_JSON;
        }
        return SQL_LINES;
    }

    public static PredictionFormat parse(String name) {
        return switch (name.toLowerCase(Locale.ROOT).replace('_', '-')) {
            case "bird", "bird-json" -> BIRD_JSON;
            case "sql", "lines", "sql-lines", "spider" -> SQL_LINES;
            case "answers", "jsonl", "answers-jsonl" -> ANSWERS_JSONL;
            case "mmsql", "mmsql-json" -> MMSQL_JSON;
            default -> throw new IllegalArgumentException("unknown prediction format '" + name + "' (bird, sql-lines, answers, mmsql)");
        };
    }
}

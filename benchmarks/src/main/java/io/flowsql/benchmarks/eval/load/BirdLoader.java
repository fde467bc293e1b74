package io.flowsql.benchmarks.eval.load;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads BIRD's official layout ({@code dev.json} with db_id, question, evidence, SQL, difficulty;
 * databases under {@code dev_databases/<db>/<db>.sqlite}) and the mini-dev file, whose entries have the
 * same fields. Ids are file positions, as BIRD's {@code predict_dev.json} keys are (mini-dev repeats some
 * question_ids).
 */
public final class BirdLoader {

    /** The official layout: {@code folder/dev.json} and {@code folder/dev_databases/}. */
    public Benchmark load(Path folder) {
        return load(folder.resolve("dev.json"), folder.resolve("dev_databases"), "bird-dev");
    }

    /**
     * Any file of BIRD entries (e.g. mini-dev's {@code mini_dev_sqlite.json}), with the folder of
     * databases (which may not exist: the questions still load, and scoring reports them as not runnable).
     */
    public Benchmark load(Path questionsFile, Path databaseRoot, String name) {
        JsonNode root = JsonFiles.read(questionsFile);
        List<BenchmarkItem> items = new ArrayList<>();
        int ordinal = 0;
        for (JsonNode q : root) {
            String sql = q.has("SQL") ? JsonFiles.text(q, "SQL") : JsonFiles.text(q, "query");
            items.add(new BenchmarkItem(String.valueOf(ordinal), ordinal, JsonFiles.text(q, "db_id"), JsonFiles.text(q, "question"),
                    JsonFiles.text(q, "evidence"), sql, JsonFiles.text(q, "difficulty"), null, 0, null));
            ordinal++;
        }
        return new Benchmark(name, items, databaseRoot);
    }
}

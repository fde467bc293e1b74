package io.flowsql.benchmarks.eval.load;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads Spider's official layout ({@code dev.json}, {@code tables.json}, {@code database/<db>/<db>.sqlite})
 * and computes each question's hardness from its gold SQL, since Spider ships none.
 */
public final class SpiderLoader {
    private final SpiderHardness hardness;

    public SpiderLoader(SpiderHardness hardness) {
        this.hardness = hardness;
    }

    /** @param folder the Spider folder; {@code questionsFile} is e.g. "dev.json" */
    public Benchmark load(Path folder, String questionsFile) {
        JsonNode root = JsonFiles.read(folder.resolve(questionsFile));
        List<BenchmarkItem> items = new ArrayList<>();
        int i = 0;
        for (JsonNode q : root) {
            String sql = JsonFiles.text(q, "query");
            items.add(new BenchmarkItem(String.valueOf(i), i, JsonFiles.text(q, "db_id"), JsonFiles.text(q, "question"),
                    "", sql, hardness.classify(sql), null, 0, null));
            i++;
        }
        return new Benchmark("spider-" + stem(questionsFile), items, folder.resolve("database"));
    }

    static String stem(String file) {
        int dot = file.lastIndexOf('.');
        return dot < 0 ? file : file.substring(0, dot);
    }
}

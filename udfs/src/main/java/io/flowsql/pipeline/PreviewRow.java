package io.flowsql.pipeline;

import java.util.ArrayList;
import java.util.List;

/**
 * One row of a candidate's result preview, its cells as text. A POJO of its own (not a {@code List<List<String>>})
 * so Flink serializes candidates with its own serializers: the job runs with generic types (Kryo) disabled.
 */
public class PreviewRow {
    public List<String> cells = new ArrayList<>();

    public PreviewRow() {}

    public PreviewRow(List<String> cells) {
        this.cells = new ArrayList<>(cells);
    }
}

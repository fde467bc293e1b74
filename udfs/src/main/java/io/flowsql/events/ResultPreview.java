package io.flowsql.events;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import org.apache.flink.api.common.typeinfo.TypeInfo;

import java.util.ArrayList;
import java.util.List;

/** The first rows of an answer's result, so a reader sees what the SQL returned without running it. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public class ResultPreview {
    public List<String> columns = new ArrayList<>();
    @TypeInfo(StringRowsTypeInfo.class)
    public List<List<String>> rows = new ArrayList<>();
    /** Rows the query returned (may exceed the rows shown). */
    public int rowCount;
    /** True when rows were cut to the preview cap. */
    public boolean truncated;

    public ResultPreview() {}
}

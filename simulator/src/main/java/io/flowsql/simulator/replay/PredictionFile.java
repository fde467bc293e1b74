package io.flowsql.simulator.replay;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One published prediction file, one SQL per benchmark question in the benchmark's order: either one SQL a
 * line (text after a tab ignored, as Spider's evaluator reads it) or a CSV with a header whose SQL column is
 * named like {@code PREDICTED SQL} (DIN-SQL's layout); chosen by the file's extension.
 */
public record PredictionFile(String name, List<String> sqls) {
    public PredictionFile {
        sqls = List.copyOf(sqls);
    }

    public static PredictionFile read(Path file) {
        String fileName = file.getFileName().toString();
        List<String> sqls = fileName.toLowerCase(Locale.ROOT).endsWith(".csv") ? csv(file) : lines(file);
        return new PredictionFile(fileName, sqls);
    }

    private static List<String> lines(Path file) {
        try {
            List<String> out = new ArrayList<>();
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                int tab = line.indexOf('\t');
                out.add((tab < 0 ? line : line.substring(0, tab)).strip());
            }
            while (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
                out.remove(out.size() - 1);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read predictions " + file, e);
        }
    }

    private static List<String> csv(Path file) {
        CsvMapper mapper = new CsvMapper();
        mapper.enable(CsvParser.Feature.WRAP_AS_ARRAY);
        CsvSchema header = CsvSchema.emptySchema().withHeader();
        List<String> out = new ArrayList<>();
        try (MappingIterator<Map<String, String>> rows = mapper.readerFor(Map.class).with(header).readValues(file.toFile())) {
            String column = null;
            while (rows.hasNext()) {
                Map<String, String> row = rows.next();
                if (column == null) {
                    column = sqlColumn(row, file);
                }
                String sql = row.get(column);
                out.add(sql == null ? "" : sql.strip());
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read predictions " + file, e);
        }
    }

    /** The header naming the predicted SQL: contains "pred" and "sql" (case-insensitive), else the only "sql" column. */
    private static String sqlColumn(Map<String, String> row, Path file) {
        List<String> sqlColumns = row.keySet().stream().filter(k -> k.toLowerCase(Locale.ROOT).contains("sql")).toList();
        return sqlColumns.stream().filter(k -> k.toLowerCase(Locale.ROOT).contains("pred")).findFirst()
                .or(() -> sqlColumns.size() == 1 ? java.util.Optional.of(sqlColumns.get(0)) : java.util.Optional.empty())
                .orElseThrow(() -> new IllegalArgumentException(file + ": no predicted-SQL column in header " + row.keySet()));
    }
}

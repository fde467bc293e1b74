package io.flowsql.sql.index;

import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.TableSchema;
import io.flowsql.sql.registry.DatabaseDeclaration;
import io.flowsql.sql.registry.ValueSampling;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The text values of a live database by bounded sampling, never a full scan: per text column the distinct values among
 * its first {@code rowsPerColumn} rows, kept until the column's and the database's byte budgets are spent, and the whole
 * build stops at its time budget (the columns not reached are left out). Its cost is logged and returned.
 */
public final class JdbcTextValues {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcTextValues.class);

    /** What one build read and what it cost. */
    public record Built(TextValues values, int columnsRead, int columnsSkipped, long bytes, long millis, boolean stoppedByTime) {
        @Override
        public String toString() {
            return values.size() + " values from " + columnsRead + " text columns (" + columnsSkipped + " left out), "
                    + bytes + " bytes, " + millis + " ms" + (stoppedByTime ? " (stopped by the time budget)" : "");
        }
    }

    private JdbcTextValues() {}

    public static Built sample(DatabaseDeclaration d, DatabaseSchema schema, Connection connection, int minLength, int maxLength)
            throws SQLException {
        ValueSampling limits = d.values();
        long start = System.nanoTime();
        long deadline = start + limits.millisPerDatabase() * 1_000_000L;
        List<ColumnRef> columns = new ArrayList<>();
        List<Integer> owners = new ArrayList<>();
        List<String> values = new ArrayList<>();
        long bytes = 0;
        int read = 0;
        int skipped = 0;
        boolean stopped = false;
        for (TableSchema table : schema.tables()) {
            for (ColumnSchema column : table.columns()) {
                if (!textual(column.type())) {
                    continue;
                }
                if (stopped || System.nanoTime() > deadline || bytes >= limits.bytesPerDatabase()) {
                    stopped |= System.nanoTime() > deadline;
                    skipped++;
                    continue;
                }
                int columnId = columns.size();
                columns.add(column.ref());
                read++;
                long columnBytes = 0;
                String c = quote(column.name());
                String sql = "SELECT DISTINCT v FROM (SELECT " + c + " AS v FROM " + qualified(table.name()) + " LIMIT "
                        + limits.rowsPerColumn() + ") s WHERE length(v) BETWEEN " + minLength + " AND " + maxLength;
                try (Statement s = connection.createStatement()) {
                    s.setQueryTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000_000L));
                    try (ResultSet rs = s.executeQuery(sql)) {
                        while (rs.next()) {
                            String v = rs.getString(1);
                            long size = v.length() + 16L;
                            if (columnBytes + size > limits.bytesPerColumn() || bytes + size > limits.bytesPerDatabase()) {
                                break;
                            }
                            columnBytes += size;
                            bytes += size;
                            values.add(v);
                            owners.add(columnId);
                        }
                    }
                } catch (SQLException e) {
                    if (!connection.getAutoCommit()) {
                        connection.rollback();
                    }
                    stopped |= System.nanoTime() > deadline;
                }
            }
        }
        Built built = new Built(new TextValues(List.copyOf(columns), owners.stream().mapToInt(Integer::intValue).toArray(),
                values.toArray(new String[0])), read, skipped, bytes, (System.nanoTime() - start) / 1_000_000, stopped);
        LOG.info("value index of {} ({}): {}", d.id(), d.engine().displayName(), built);
        return built;
    }

    private static boolean textual(String type) {
        String t = type.toLowerCase(Locale.ROOT);
        return t.contains("char") || t.contains("text") || t.contains("string") || t.equals("name") || t.contains("varchar");
    }

    /** {@code schema.table} as two quoted names, or one. */
    private static String qualified(String name) {
        int dot = name.indexOf('.');
        return dot < 0 ? quote(name) : quote(name.substring(0, dot)) + "." + quote(name.substring(dot + 1));
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}

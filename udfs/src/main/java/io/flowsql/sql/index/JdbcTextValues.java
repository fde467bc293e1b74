package io.flowsql.sql.index;

import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.TableSchema;
import io.flowsql.sql.engine.EngineProfile;
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
 * build stops at its time budget (the columns not reached are left out). A value's length bounds count characters on
 * every engine ({@link EngineProfile#textLength}). Its cost is logged and returned.
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
        EngineProfile engine = d.engine().profile();
        int failed = 0;
        String firstFailure = null;
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
                String c = engine.quoteName(column.name());
                String sql = "SELECT DISTINCT v FROM (SELECT " + c + " AS v FROM " + qualified(engine, table.name()) + " LIMIT "
                        + limits.rowsPerColumn() + ") s WHERE " + engine.textLength("v") + " BETWEEN " + minLength + " AND " + maxLength;
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
                    failed++;
                    if (firstFailure == null) {
                        firstFailure = column.ref() + ": " + e.getMessage();
                    }
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
        if (failed > 0) {
            LOG.warn("value index of {}: {} text column(s) could not be read; the first: {}", d.id(), failed, firstFailure);
        }
        return built;
    }

    private static boolean textual(String type) {
        String t = type.toLowerCase(Locale.ROOT);
        return t.contains("char") || t.contains("text") || t.contains("string") || t.equals("name") || t.contains("varchar");
    }

    /** {@code schema.table} as two names quoted as the engine quotes them, or one. */
    private static String qualified(EngineProfile engine, String name) {
        int dot = name.indexOf('.');
        return dot < 0 ? engine.quoteName(name)
                : engine.quoteName(name.substring(0, dot)) + "." + engine.quoteName(name.substring(dot + 1));
    }
}

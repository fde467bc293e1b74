package io.flowsql.config.sql;

import io.flowsql.config.Settings;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import java.time.Duration;
import java.util.List;

/**
 * The SQL executor's room: the budgets every statement runs under, the job's candidates and the SQL a person runs in
 * the console alike (the engine reads them into its executor configuration: io.flowsql.rooms.SqlRooms).
 */
public final class SqlOptions {
    private SqlOptions() {}

    public static final ConfigOption<Duration> QUERY_TIMEOUT = ConfigOptions.key("sql.query-timeout")
            .durationType().defaultValue(Duration.ofSeconds(10))
            .withDescription("Budget of one SQL statement: the guard's parse, execution, reading the result and its fingerprint for the vote (each stopped when it runs out).");
    public static final ConfigOption<Integer> MAX_ROWS = ConfigOptions.key("sql.max-rows")
            .intType().defaultValue(1000)
            .withDescription("Rows fetched per query at most.");

    public static List<ConfigOption<?>> options() {
        return List.of(QUERY_TIMEOUT, MAX_ROWS);
    }

    /** Fails naming the key when a value is out of range. */
    public static void validate(Settings settings) {
        settings.requireAtLeast(MAX_ROWS, 1);
    }
}

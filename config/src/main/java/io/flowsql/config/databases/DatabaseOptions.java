package io.flowsql.config.databases;

import io.flowsql.config.OptionFamily;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import java.util.List;

/**
 * The databases' room: the SQLite folders (benchmark layout or given roots) and the server databases declared by id
 * (the engine reads them into its registry: io.flowsql.rooms.SqlRooms).
 */
public final class DatabaseOptions {
    private DatabaseOptions() {}

    public static final ConfigOption<String> SHARED_DATA = ConfigOptions.key("data.shared")
            .stringType().defaultValue("../shared/data")
            .withDescription("Benchmark data folder with Spider's (and BIRD's) layout; its databases are used unless data.database-roots is set.");
    public static final ConfigOption<List<String>> DATABASE_ROOTS = ConfigOptions.key("data.database-roots")
            .stringType().asList().defaultValues()
            .withDescription("Comma-separated folders holding <db>/<db>.sqlite; overrides data.shared.");
    public static final ConfigOption<List<String>> TABLES_JSON = ConfigOptions.key("data.tables-json")
            .stringType().asList().defaultValues()
            .withDescription("Comma-separated Spider/BIRD tables.json files that go with data.database-roots.");

    /**
     * Databases declared by id beside the SQLite folders (docs/DATABASE.md#server-databases), e.g.
     * {@code databases.sales.url=jdbc:postgresql://db:5432/sales}, {@code databases.sales.user=flowsql_reader},
     * {@code databases.sales.password-env=SALES_DB_PASSWORD}; credentials only from the environment or a secrets file.
     */
    public static final OptionFamily<String> DATABASES = OptionFamily.of("databases.", "<id>.<setting>",
            String.class, "A PostgreSQL or DuckDB database by id: url, dialect, user, password-env / password-file, schemas, "
                    + "files, pool-size, timeout, max-rows, max-bytes, refresh-interval, values.* (docs/DATABASE.md).");

    public static List<ConfigOption<?>> options() {
        return List.of(SHARED_DATA, DATABASE_ROOTS, TABLES_JSON);
    }
}

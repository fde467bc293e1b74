package io.flowsql.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flowsql.config.databases.DatabaseOptions;
import io.flowsql.config.kafka.KafkaOptions;
import io.flowsql.config.sql.SqlOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsTest {
    enum Mode { READ_ONLY, READ_WRITE }

    private static final ConfigOption<Mode> MODE = ConfigOptions.key("test.mode").enumType(Mode.class).defaultValue(Mode.READ_WRITE);
    private static final List<ConfigOption<?>> OPTIONS = List.of(MODE, SqlOptions.QUERY_TIMEOUT, SqlOptions.MAX_ROWS,
            DatabaseOptions.DATABASE_ROOTS, KafkaOptions.BOOTSTRAP_SERVERS);

    @Test
    void readsTheRoomsOptionsAsGivenWithDefaultsForTheRest() {
        Settings s = Settings.of(Map.of(" sql.query-timeout ", " 3s ", "test.mode", "read-only",
                "data.database-roots", "/a, /b;/c", "kafka.client.security.protocol", "SASL_SSL"), OPTIONS);
        assertThat(s.get(SqlOptions.QUERY_TIMEOUT)).isEqualTo(Duration.ofSeconds(3));
        assertThat(s.get(SqlOptions.MAX_ROWS)).isEqualTo(1000);
        assertThat(s.get(MODE)).isEqualTo(Mode.READ_ONLY);
        assertThat(s.get(DatabaseOptions.DATABASE_ROOTS)).containsExactly("/a", "/b", "/c");
        assertThat(s.get(KafkaOptions.KAFKA_CLIENT)).containsExactly(Map.entry("security.protocol", "SASL_SSL"));
        assertThat(s.isSet(SqlOptions.QUERY_TIMEOUT)).isTrue();
        assertThat(s.isSet(SqlOptions.MAX_ROWS)).isFalse();
    }

    @Test
    void aValueThatDoesNotParseFailsNamingItsKey() {
        assertThatThrownBy(() -> Settings.of(Map.of("sql.max-rows", "many"), OPTIONS))
                .hasMessageContaining("sql.max-rows").hasMessageContaining("many");
        assertThatThrownBy(() -> Settings.of(Map.of("test.mode", "append"), OPTIONS))
                .hasMessageContaining("test.mode must be one of read-only, read-write, not 'append'");
        Settings zero = Settings.of(Map.of("sql.max-rows", "0"), OPTIONS);
        assertThatThrownBy(() -> SqlOptions.validate(zero)).hasMessage("sql.max-rows must be at least 1, not 0");
    }

    @Test
    void overridesGoOverTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("job.properties");
        Files.writeString(file, "sql.max-rows=5\nsql.query-timeout=2s\n");
        Settings s = Settings.load(file, Map.of("sql.max-rows", "7"), OPTIONS);
        assertThat(s.get(SqlOptions.MAX_ROWS)).isEqualTo(7);
        assertThat(s.get(SqlOptions.QUERY_TIMEOUT)).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.values()).containsOnlyKeys("sql.max-rows", "sql.query-timeout");
        assertThatThrownBy(() -> Settings.load(dir.resolve("missing"), Map.of(), OPTIONS)).hasMessageContaining("missing");
    }
}

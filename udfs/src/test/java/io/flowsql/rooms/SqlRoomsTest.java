package io.flowsql.rooms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flowsql.access.AccessPolicies;
import io.flowsql.config.Settings;
import io.flowsql.sql.exec.SqlExecutorConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SQL rooms read from options as the job and the console both read them. */
class SqlRoomsTest {
    private static Settings settings(Map<String, String> given) {
        return Settings.of(given, SqlRooms.options());
    }

    @Test
    void theExecutorRunsUnderTheSqlRoomsBudgets() {
        SqlExecutorConfig sql = SqlRooms.executor(settings(Map.of("sql.query-timeout", "3s", "sql.max-rows", "25")));
        assertThat(sql.timeoutMillis()).isEqualTo(3000);
        assertThat(sql.maxRows()).isEqualTo(25);
        assertThat(SqlRooms.executor(settings(Map.of())).maxRows()).isEqualTo(1000);
    }

    @Test
    void theCatalogIsTheGivenRootsElseTheSharedData(@TempDir Path dir) throws Exception {
        Path one = database(dir.resolve("one"), "alpha");
        Path two = database(dir.resolve("two"), "beta");
        database(dir.resolve("shared/spider/database"), "gamma");
        assertThat(SqlRooms.locator(settings(Map.of("data.database-roots", one + ", " + two))).databaseIds())
                .containsExactly("alpha", "beta");
        assertThat(SqlRooms.locator(settings(Map.of("data.shared", dir.resolve("shared").toString()))).databaseIds())
                .containsExactly("gamma");
        assertThat(SqlRooms.declaredIds(settings(Map.of("databases.lake.url", "jdbc:duckdb:" + dir.resolve("lake.duckdb")))))
                .containsExactly("lake");
    }

    private static Path database(Path root, String id) throws Exception {
        Files.createDirectories(root.resolve(id));
        Files.createFile(root.resolve(id).resolve(id + ".sqlite"));
        return root;
    }

    @Test
    void accessPoliciesComeFromTheTenantsAndAreCheckedThere() {
        AccessPolicies access = SqlRooms.access(settings(Map.of("tenants.a.databases", "concert_singer")));
        assertThat(access.enforced()).isTrue();
        assertThat(access.allowsDatabase("a", "concert_singer")).isTrue();
        assertThat(access.allowsDatabase("a", "pets_1")).isFalse();
        assertThat(SqlRooms.access(settings(Map.of())).enforced()).isFalse();

        assertThatThrownBy(() -> SqlRooms.validate(settings(Map.of("tenants.a.databases", "lake",
                "databases.lake.url", "jdbc:duckdb:/tmp/none.duckdb", "tenants.a.roles.lake", "team_a"))))
                .hasMessageContaining("tenants.<tenant>.roles.lake").hasMessageContaining("PostgreSQL");
        assertThatThrownBy(() -> SqlRooms.validate(settings(Map.of("sql.max-rows", "0"))))
                .hasMessageContaining("sql.max-rows must be at least 1");
    }
}

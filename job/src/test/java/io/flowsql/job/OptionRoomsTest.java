package io.flowsql.job;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;
import io.flowsql.config.OptionFamily;
import io.flowsql.config.Settings;
import io.flowsql.config.access.AccessOptions;
import io.flowsql.config.databases.DatabaseOptions;
import io.flowsql.config.kafka.KafkaOptions;
import io.flowsql.config.sql.SqlOptions;
import io.flowsql.rooms.SqlRooms;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.junit.jupiter.api.Test;

/**
 * Options are owned by their rooms: an option key is declared (ConfigOptions.key) only in a room's {@code *Options}
 * class (config's rooms, and JobOptions for the options still the job's own) or by OptionFamily for a family's member,
 * and the job reads a room's options as the room declares them (the same ConfigOption, not a second declaration).
 */
public class OptionRoomsTest {
    /** The rule; other modules' tests (the console's) check their own classes with it. */
    public static final ArchRule RULE = noClasses()
            .that(DescribedPredicate.describe("are not an options room or OptionFamily", (JavaClass c) ->
                    !(c.getSimpleName().endsWith("Options") && (c.getPackageName().startsWith("io.flowsql.config")
                            || c.getPackageName().equals("io.flowsql.job")))
                            && !c.isEquivalentTo(OptionFamily.class)))
            .should().callMethod(ConfigOptions.class, "key", String.class)
            .because("each option key is declared once, in its room's class (io.flowsql.config.<room>.*Options)");

    @Test
    void optionKeysAreDeclaredOnlyInTheirRooms() {
        RULE.check(KafkaClientConstructionTest.mainClassesOf(FlowSqlJob.class, Settings.class, SqlRooms.class));
    }

    @Test
    void theJobReadsEachRoomsOwnOptions() {
        Map<String, List<ConfigOption<?>>> rooms = Map.of("kafka.topic.", KafkaOptions.options(), "sql.", SqlOptions.options(),
                "data.", DatabaseOptions.options(), "tenant.", AccessOptions.options());
        rooms.forEach((prefix, room) -> {
            for (ConfigOption<?> option : room) {
                assertThat(JobOptions.all().stream().filter(o -> o == option)).as("the job reads %s as its room declares it",
                        option.key()).hasSize(1);
            }
            for (ConfigOption<?> option : JobOptions.all()) {
                if (option.key().startsWith(prefix)) {
                    assertThat(room.stream().anyMatch(o -> o == option)).as("%s is declared in its room", option.key()).isTrue();
                }
            }
        });
        assertThat(JobOptions.families()).contains(KafkaOptions.KAFKA_CLIENT, DatabaseOptions.DATABASES, AccessOptions.TENANTS);
    }
}

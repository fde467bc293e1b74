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
import io.flowsql.config.feedback.FeedbackOptions;
import io.flowsql.config.journal.JournalOptions;
import io.flowsql.config.kafka.KafkaOptions;
import io.flowsql.config.llm.LlmOptions;
import io.flowsql.config.pacing.PacingOptions;
import io.flowsql.config.sql.SqlOptions;
import io.flowsql.rooms.SqlRooms;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.junit.jupiter.api.Test;

/**
 * Options are owned by their rooms: an option key is declared (ConfigOptions.key) only in a room's {@code *Options}
 * class (config's rooms, and JobOptions for the options that are the job's own) or by OptionFamily for a family's
 * member, a key of a room's is declared in that room and nowhere else, each room lists every option it declares, and
 * the job reads a room's options as the room declares them (the same ConfigOption, not a second declaration).
 */
public class OptionRoomsTest {
    /** The rule; other modules' tests (the console's) check their own classes with it. */
    public static final ArchRule RULE = noClasses()
            .that(DescribedPredicate.describe("are not an options room or OptionFamily", (JavaClass c) ->
                    !(c.getSimpleName().endsWith("Options") && c.getPackageName().startsWith("io.flowsql.config")
                            || c.isEquivalentTo(JobOptions.class))
                            && !c.isEquivalentTo(OptionFamily.class)))
            .should().callMethod(ConfigOptions.class, "key", String.class)
            .because("each option key is declared once, in its room's class (io.flowsql.config.<room>.*Options)");

    @Test
    void optionKeysAreDeclaredOnlyInTheirRooms() {
        RULE.check(KafkaClientConstructionTest.mainClassesOf(FlowSqlJob.class, Settings.class, SqlRooms.class));
    }

    /** Each room, and which keys are its own: those it declares and any under its prefixes (one declared elsewhere fails). */
    private record Room(Class<?> type, List<ConfigOption<?>> options, List<String> prefixes) {
        boolean owns(String key) {
            return prefixes.stream().anyMatch(key::startsWith) || options.stream().anyMatch(o -> o.key().equals(key));
        }
    }

    static final List<Room> ROOMS = List.of(
            new Room(KafkaOptions.class, KafkaOptions.options(), List.of("kafka.topic.")),
            new Room(SqlOptions.class, SqlOptions.options(), List.of("sql.")),
            new Room(DatabaseOptions.class, DatabaseOptions.options(), List.of("data.")),
            new Room(AccessOptions.class, AccessOptions.options(), List.of("tenant.")),
            new Room(LlmOptions.class, LlmOptions.options(), List.of("llm.")),
            new Room(JournalOptions.class, JournalOptions.options(), List.of("journal.")),
            new Room(FeedbackOptions.class, FeedbackOptions.options(), List.of("feedback.")),
            new Room(PacingOptions.class, PacingOptions.options(), List.of()));

    @Test
    void theJobReadsEachRoomsOwnOptions() {
        for (Room room : ROOMS) {
            assertThat(room.options()).as("%s lists every option it declares", room.type().getSimpleName())
                    .containsExactlyInAnyOrderElementsOf(declaredIn(room.type()));
            for (ConfigOption<?> option : room.options()) {
                assertThat(JobOptions.all().stream().filter(o -> o == option)).as("the job reads %s as its room declares it",
                        option.key()).hasSize(1);
            }
        }
        assertThat(declaredOutsideTheirRoom(JobOptions.all())).as("room keys the job declares itself").isEmpty();
        assertThat(JobOptions.families()).contains(KafkaOptions.KAFKA_CLIENT, DatabaseOptions.DATABASES, AccessOptions.TENANTS)
                .containsAll(LlmOptions.families());
        for (OptionFamily<?> family : JobOptions.families()) {
            if (family.prefix().startsWith("llm.")) {
                assertThat(LlmOptions.families()).as("%s is declared in the LLM room", family.prefix()).contains(family);
            }
        }
    }

    @Test
    void aRoomsKeyDeclaredOutsideItFails() {
        List<ConfigOption<?>> withStrays = new java.util.ArrayList<>(JobOptions.all());
        withStrays.add(ConfigOptions.key("llm.stray").stringType().defaultValue("").withDescription("a new llm option"));
        withStrays.add(ConfigOptions.key(JournalOptions.TOPIC.key()).stringType().defaultValue("").withDescription("a copy"));
        withStrays.add(ConfigOptions.key("job.idle-after").durationType().noDefaultValue().withDescription("a copy"));
        assertThat(declaredOutsideTheirRoom(withStrays)).containsExactly("llm.stray", "journal.topic", "job.idle-after");
    }

    /** The keys of {@code options} that a room owns but that are not that room's own declaration. */
    static List<String> declaredOutsideTheirRoom(List<ConfigOption<?>> options) {
        return options.stream()
                .filter(option -> ROOMS.stream().anyMatch(room -> room.owns(option.key())
                        && room.options().stream().noneMatch(o -> o == option)))
                .map(ConfigOption::key).toList();
    }

    /** The public static ConfigOption fields of a room's class. */
    private static List<ConfigOption<?>> declaredIn(Class<?> room) {
        return Arrays.stream(room.getDeclaredFields())
                .filter(f -> Modifier.isPublic(f.getModifiers()) && Modifier.isStatic(f.getModifiers())
                        && f.getType() == ConfigOption.class)
                .<ConfigOption<?>>map(OptionRoomsTest::value).toList();
    }

    private static ConfigOption<?> value(Field field) {
        try {
            return (ConfigOption<?>) field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}

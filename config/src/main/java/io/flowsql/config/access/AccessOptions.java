package io.flowsql.config.access;

import io.flowsql.config.OptionFamily;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import java.util.List;

/**
 * The access room: which tenant may ask which databases and tables, and how a question's tenant is found (the engine
 * reads and validates them as its access policies: io.flowsql.rooms.SqlRooms).
 */
public final class AccessOptions {
    private AccessOptions() {}

    public static final ConfigOption<String> TENANT_FROM_DIALOGUE_ID = ConfigOptions.key("tenant.from-dialogue-id")
            .stringType().defaultValue("")
            .withDescription("A regular expression deriving a question's tenant from its dialogue_id when the question "
                    + "has no tenant field (group 1, else the whole match), e.g. ^([a-z0-9-]+)/; blank = none.");

    /**
     * Access policies: {@code tenants.<tenant>.databases=db1,db2} (* = all), {@code tenants.<tenant>.tables.<db>=t1,ns.*}
     * and {@code tenants.<tenant>.roles.<db>=role} (PostgreSQL role set per statement); none set = every question may ask
     * every database (docs/DATABASE.md).
     */
    public static final OptionFamily<String> TENANTS = OptionFamily.of("tenants.",
            "<tenant>.databases, tenants.<tenant>.tables.<db>, tenants.<tenant>.roles.<db>",
            String.class, "Which databases (and tables) a tenant may ask; once any tenant is set, a question of no "
                    + "or an unknown tenant is refused (error_kind forbidden). roles.<db>: the PostgreSQL role its SQL "
                    + "runs as (SET LOCAL ROLE per statement).");

    public static List<ConfigOption<?>> options() {
        return List.of(TENANT_FROM_DIALOGUE_ID);
    }
}

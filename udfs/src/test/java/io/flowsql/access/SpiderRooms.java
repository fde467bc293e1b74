package io.flowsql.access;

import io.flowsql.agents.SpiderAgentParts;
import java.util.Map;

/** A room over the Spider test databases (SQLite executor and catalog) under the given tenant policies. */
public final class SpiderRooms {
    private SpiderRooms() {}

    /**
     * On {@code concert_singer}: tenant {@code narrow} may read only {@code singer}, {@code wide} the whole database, and
     * {@code thirdTenant} the databases {@code thirdDatabases} (a list, or {@code *}).
     */
    public static DataDoors narrowWideAnd(String thirdTenant, String thirdDatabases) {
        return under(Map.of("narrow.databases", "concert_singer", "narrow.tables.concert_singer", "singer",
                "wide.databases", "concert_singer", thirdTenant + ".databases", thirdDatabases));
    }

    /** @param policies {@code <tenant>.databases}, {@code <tenant>.tables.<db>} … as the job's {@code tenants.} family */
    public static DataDoors under(Map<String, String> policies) {
        return new DataDoors(SpiderAgentParts.EXECUTOR, SpiderAgentParts.CATALOG, AccessPolicies.fromOptions(policies, ""));
    }
}

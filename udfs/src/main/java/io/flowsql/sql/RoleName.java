package io.flowsql.sql;

import java.util.regex.Pattern;

/**
 * A database role name as the job accepts it (tenants.&lt;t&gt;.roles.&lt;db&gt;): an unquoted SQL identifier, set as a
 * quoted one so its case is kept. Checked where the options are read and again where the role is set.
 */
public final class RoleName {
    private static final Pattern PLAIN_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

    private RoleName() {}

    public static boolean valid(String role) {
        return role != null && PLAIN_IDENTIFIER.matcher(role).matches();
    }

    /** The role as a quoted identifier. */
    public static String quoted(String role) {
        if (!valid(role)) {
            throw new IllegalArgumentException("not a role name: " + role);
        }
        return '"' + role + '"';
    }
}

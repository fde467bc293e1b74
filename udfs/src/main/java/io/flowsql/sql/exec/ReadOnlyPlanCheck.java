package io.flowsql.sql.exec;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Set;

/**
 * Asks SQLite itself, through EXPLAIN, whether a statement JSqlParser could not parse would write:
 * SQLite's compiled program names every write it would do (a write transaction, schema or b-tree changes).
 */
final class ReadOnlyPlanCheck {

    private static final Set<String> WRITING_OPCODES = Set.of(
            "openwrite", "parseschema", "vacuum", "journalmode", "setcookie", "vcreate", "vdestroy", "vupdate",
            "destroy", "createbtree", "clear", "incrvacuum", "droptable", "dropindex", "droptrigger");

    private ReadOnlyPlanCheck() {}

    /**
     * Null when the program only reads; otherwise why not.
     *
     * @throws SQLException when SQLite cannot prepare the statement (a syntax or name error)
     */
    static String writeReason(Connection connection, String statement) throws SQLException {
        try (Statement explain = connection.createStatement();
                ResultSet program = explain.executeQuery("EXPLAIN " + statement)) {
            while (program.next()) {
                String opcode = program.getString("opcode").toLowerCase(Locale.ROOT);
                if (opcode.equals("transaction") && program.getInt("p2") != 0) {
                    return "SQLite would open a write transaction";
                }
                if (WRITING_OPCODES.contains(opcode)) {
                    return "SQLite's program would write (" + opcode + ")";
                }
            }
        }
        return null;
    }
}

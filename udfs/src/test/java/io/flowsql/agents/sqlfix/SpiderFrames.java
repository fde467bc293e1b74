package io.flowsql.agents.sqlfix;

import io.flowsql.agents.common.PromptFields;
import io.flowsql.sql.SpiderData;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Prompt fields over a real Spider database, its schema read as the DDL stored in the SQLite file, for agent tests. */
public final class SpiderFrames {
    private SpiderFrames() {}

    public static String ddl(String dbId) {
        String url = "jdbc:sqlite:" + SpiderData.sharedData().resolve("spider/database").resolve(dbId).resolve(dbId + ".sqlite");
        StringBuilder out = new StringBuilder();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL")) {
            while (rs.next()) {
                out.append(rs.getString(1).strip()).append(";\n");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the schema of " + dbId, e);
        }
        return out.toString();
    }

    public static PromptFields frame(String dbId, String question, String history) {
        return PromptFields.shared(dbId, question, null, history, ddl(dbId));
    }
}

package io.flowsql.agents.common;

import io.flowsql.sql.engine.DatabaseEngine;
import java.util.EnumMap;
import java.util.Map;

/**
 * What the prompts say about the database's engine: its name ({@code {{engine}}}), its dialect's rules in one line
 * ({@code {{engine_rules}}}: quoting, strict GROUP BY, LIKE and case, division, NULL order, date functions) and its
 * own functions for the syntax correction ({@code {{engine_functions}}}), from
 * {@code prompts/dialect/<engine>.rules.txt} and {@code .functions.txt}.
 */
public final class EngineDialectText {
    private static final Map<DatabaseEngine, String> RULES = new EnumMap<>(DatabaseEngine.class);
    private static final Map<DatabaseEngine, String> FUNCTIONS = new EnumMap<>(DatabaseEngine.class);

    static {
        for (DatabaseEngine engine : DatabaseEngine.values()) {
            RULES.put(engine, PromptTemplate.load("prompts/dialect/" + engine.id() + ".rules.txt").text().strip());
            FUNCTIONS.put(engine, PromptTemplate.load("prompts/dialect/" + engine.id() + ".functions.txt").text().strip());
        }
    }

    private EngineDialectText() {}

    /** The fields with the engine's three placeholders set. */
    public static PromptFields fill(PromptFields fields, DatabaseEngine engine) {
        return fields.with("engine", engine.displayName()).with("engine_rules", RULES.get(engine))
                .with("engine_functions", FUNCTIONS.get(engine));
    }

    /** The engine the fields name ({@link #fill}), SQLite when they name none. */
    public static DatabaseEngine engineOf(PromptFields fields) {
        String name = fields.get("engine");
        for (DatabaseEngine e : DatabaseEngine.values()) {
            if (e.displayName().equals(name)) {
                return e;
            }
        }
        return DatabaseEngine.embedded();
    }

    public static String rules(DatabaseEngine engine) {
        return RULES.get(engine);
    }
}

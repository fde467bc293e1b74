package io.flowsql.agents.magsql;

import io.flowsql.agents.common.StageNames;

/** The request stage names of MAG-SQL's model calls (the stage name, or the stage plus its sub-step). */
final class StageNamesMag {
    static final String LINK = StageNames.MAGSQL_LINK;
    static final String DECOMPOSE = StageNames.MAGSQL_DECOMPOSE;
    static final String GENERATE_FIRST = StageNames.MAGSQL_GENERATE + ".first";
    static final String GENERATE_NEXT = StageNames.MAGSQL_GENERATE + ".next";
    static final String REFINE = StageNames.MAGSQL_GENERATE + ".refine";

    private StageNamesMag() {}
}

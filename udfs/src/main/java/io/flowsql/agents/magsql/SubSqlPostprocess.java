package io.flowsql.agents.magsql;

import java.util.regex.Pattern;

/**
 * The authors' last touch on an accepted sub-SQL (MAG-SQL's {@code Refiner.talk}): a string concatenation of two
 * columns with a space between them ({@code a || ' ' || b}) becomes two columns ({@code a, b}), since the benchmarks'
 * gold queries select them apart; and an ascending {@code ORDER BY … ASC LIMIT n} sorts NULLs last
 * ({@code ASC NULLS LAST LIMIT n}), since SQLite sorts NULL first and a NULL is rarely "the smallest". The authors
 * match the exact text; we also accept other spacing and lower case.
 */
final class SubSqlPostprocess {
    private static final Pattern SPACE_CONCAT = Pattern.compile("\\s*\\|\\|\\s*' '\\s*\\|\\|\\s*");
    private static final Pattern ASC_LIMIT = Pattern.compile("(?i)\\bASC(\\s+)LIMIT\\b");

    private SubSqlPostprocess() {}

    static String apply(String sql) {
        String out = SPACE_CONCAT.matcher(sql).replaceAll(", ");
        return ASC_LIMIT.matcher(out).replaceAll("ASC NULLS LAST$1LIMIT");
    }
}

package io.flowsql.agents.opensearch.align.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.sql.SpiderData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Aliases read back in one pass give what replacing each declared alias in turn gave (the former way, kept here as
 * the reference) on every gold query of Spider dev and BIRD mini-dev, and on aliases that chain.
 */
class SqlTextTest {
    private static final Pattern TABLE_AS = Pattern.compile("(?i)\\b(\\w+)\\s+AS\\s+(\\w+)\\b");

    /** Each alias's qualifiers replaced in turn, a pattern per alias. */
    private static String aliasByAlias(String sql) {
        String out = sql;
        Matcher m = TABLE_AS.matcher(sql);
        while (m.find()) {
            out = out.replaceAll("\\b" + Pattern.quote(m.group(2)) + "\\.", Matcher.quoteReplacement(m.group(1) + "."));
        }
        return out;
    }

    private static List<String> goldQueries(String file) throws IOException {
        List<String> queries = new ArrayList<>();
        for (String line : Files.readAllLines(SpiderData.sharedData().resolve(file))) {
            int tab = line.lastIndexOf('\t');
            if (tab > 0) {
                queries.add(line.substring(0, tab));
            }
        }
        return queries;
    }

    @Test
    void goldQueriesReadBackAsAliasByAliasDid() throws IOException {
        List<String> queries = new ArrayList<>(goldQueries("spider/dev_gold.sql"));
        Path bird = SpiderData.sharedData().resolve("bird-minidev/mini_dev_sqlite_gold.sql");
        if (Files.exists(bird)) {
            queries.addAll(goldQueries("bird-minidev/mini_dev_sqlite_gold.sql"));
        }
        int changed = 0;
        for (String sql : queries) {
            String expected = aliasByAlias(sql);
            assertThat(SqlText.withoutAliases(sql)).as(sql).isEqualTo(expected);
            changed += expected.equals(sql) ? 0 : 1;
        }
        assertThat(queries).hasSizeGreaterThan(1000);
        assertThat(changed).as("queries whose aliases were read back").isGreaterThan(300);
    }

    @Test
    void chainedAndRepeatedAliasesReadBackInDeclarationOrder() {
        for (String sql : List.of(
                "SELECT z.a, y.b FROM y AS z JOIN x AS y ON z.id = y.id",
                "SELECT t.a FROM a AS t JOIN b AS t ON t.id = t.id",
                "SELECT T1.name, T10.name, xT1.c FROM singer AS T1 JOIN concert AS T10 ON T1.id = T10.sid",
                "SELECT count(*) AS n FROM singer AS s WHERE s.age > 3.5 AND n.x = 'T.1'")) {
            assertThat(SqlText.withoutAliases(sql)).as(sql).isEqualTo(aliasByAlias(sql));
        }
        assertThat(SqlText.withoutAliases("SELECT z.a FROM y AS z JOIN x AS y")).isEqualTo("SELECT x.a FROM y AS z JOIN x AS y");
    }
}

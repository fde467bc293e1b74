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

    /** Words, blanks of every kind \\s knows, "AS" in every case and near it, dots, digits, quotes, other ASCII. */
    private static final String[] PIECES = {"T1", "t1", "singer", "AS", "as", "As", "aS", "ASC", "xas", "AS_", " ", "  ", "\t",
        "\n", "\r", "\u000B", "\f", ".", "..", "T1.", "s.", "1.5", "_", "9", "(", ",", "'T1.x'", "\"a\".", "-", "=", "*",
        "SELECT", "FROM", "JOIN", "T10", "x"};

    @Test
    void theScanFindsWhatThePatternsFindOnGeneratedAsciiTexts() {
        java.util.Random random = new java.util.Random(57);
        int changed = 0;
        for (int i = 0; i < 60_000; i++) {
            StringBuilder sql = new StringBuilder();
            int pieces = random.nextInt(28);
            for (int p = 0; p < pieces; p++) {
                sql.append(random.nextInt(3) == 0 ? " AS " : PIECES[random.nextInt(PIECES.length)]);
            }
            String text = sql.toString();
            String expected = SqlText.withoutAliasesByPattern(text);
            assertThat(SqlText.withoutAliasesScanned(text)).as(text).isEqualTo(expected);
            assertThat(SqlText.withoutAliases(text)).isEqualTo(expected);
            changed += expected.equals(text) ? 0 : 1;
        }
        // the generator reaches the interesting cases: many texts have qualifiers read back
        assertThat(changed).isGreaterThan(10_000);
    }

    @Test
    void aQueryWithOtherThanAsciiGoesThroughThePatterns() {
        // Java's \\b counts the letter before T1 as part of a word: no declaration, no boundary before the qualifier
        String sql = "SELECT \u00E9T1.name, T1.age FROM singer AS T1 JOIN \u00E9x AS T2";
        assertThat(SqlText.withoutAliases(sql)).isEqualTo(SqlText.withoutAliasesByPattern(sql))
                .isEqualTo("SELECT \u00E9T1.name, singer.age FROM singer AS T1 JOIN \u00E9x AS T2");
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

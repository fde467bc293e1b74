package io.flowsql.agents.opensearch.align.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.sql.SpiderData;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every gated pattern of the alignment checks names only words its matches hold: on every Spider dev and BIRD
 * mini-dev gold query (as the checks see it, on one line, aliases read back) and on a query made for each check, in
 * both cases, a text the pattern matches is never one its gate closes on; and the gates do close on most queries.
 */
class GatedPatternTest {
    private static final List<String> MADE = List.of(
            "SELECT first_name || ' ' || last_name FROM people",
            "SELECT name FROM singer WHERE age = (SELECT max(age) FROM singer)",
            "SELECT a FROM t WHERE id = (SELECT id FROM u ORDER BY x LIMIT 1)",
            "SELECT max(age) FROM singer ORDER BY age DESC LIMIT 1",
            "SELECT singer.* FROM singer",
            "SELECT count(CASE WHEN a = 1 THEN 1 ELSE 0 END) FROM t",
            "SELECT a FROM t WHERE strftime('%Y', d) = 2010",
            "SELECT a FROM t JOIN u ON t.id = u.id OR t.x = u.y",
            "SELECT a FROM t JOIN u ON t.id IN (1, 2)",
            "SELECT a FROM t GROUP BY a ORDER BY max(b) DESC LIMIT 1",
            "SELECT a FROM t WHERE t.name = 'Ann' AND city = 'Rome'");

    private static Map<String, GatedPattern> gatedPatterns() throws IllegalAccessException {
        Map<String, GatedPattern> all = new LinkedHashMap<>();
        for (Class<?> checks : List.of(StyleChecks.class, FunctionChecks.class, AgentChecks.class)) {
            for (Field field : checks.getDeclaredFields()) {
                if (field.getType() == GatedPattern.class && Modifier.isStatic(field.getModifiers())) {
                    field.setAccessible(true);
                    all.put(checks.getSimpleName() + "." + field.getName(), (GatedPattern) field.get(null));
                }
            }
        }
        return all;
    }

    private static List<String> texts() throws IOException {
        List<String> texts = new ArrayList<>();
        for (String file : List.of("spider/dev_gold.sql", "bird-minidev/mini_dev_sqlite_gold.sql")) {
            for (String line : Files.readAllLines(SpiderData.sharedData().resolve(file))) {
                int tab = line.lastIndexOf('\t');
                if (tab > 0) {
                    texts.add(line.substring(0, tab));
                }
            }
        }
        texts.addAll(MADE);
        MADE.forEach(made -> texts.add(made.toLowerCase(Locale.ROOT)));
        List<String> asChecked = new ArrayList<>();
        for (String text : texts) {
            String oneLine = SqlText.oneLine(text);
            asChecked.add(oneLine);
            asChecked.add(SqlText.withoutAliases(oneLine));
        }
        return asChecked;
    }

    @Test
    void noGateClosesOnATextItsPatternMatches() throws Exception {
        Map<String, GatedPattern> gated = gatedPatterns();
        assertThat(gated).hasSizeGreaterThanOrEqualTo(12);
        List<String> texts = texts();
        long checks = 0;
        long closed = 0;
        for (Map.Entry<String, GatedPattern> entry : gated.entrySet()) {
            GatedPattern pattern = entry.getValue();
            int matched = 0;
            for (String text : texts) {
                boolean open = pattern.mayMatch(GatedPattern.upper(text));
                boolean matches = pattern.pattern().matcher(text).find();
                assertThat(open || !matches).as("%s closes on %s, which it matches", entry.getKey(), text).isTrue();
                matched += matches ? 1 : 0;
                closed += open ? 0 : 1;
                checks++;
            }
            assertThat(matched).as("texts %s matches", entry.getKey()).isPositive();
        }
        assertThat(closed).as("gates closed of %d", checks).isGreaterThan(checks / 2);
    }

    @Test
    void aClosedGateLeavesTheTextAsItIs() {
        GatedPattern year = GatedPattern.of("(?i)(strftime\\s*\\([^()]*?\\)\\s*=\\s*)(\\d{4})", "STRFTIME");
        String plain = "SELECT a FROM t WHERE y = 2010";
        assertThat(year.replaceAll(plain, GatedPattern.upper(plain), "$1'$2'")).isSameAs(plain);
        assertThat(year.matcher(plain, GatedPattern.upper(plain)).find()).isFalse();
        String dated = "SELECT a FROM t WHERE strftime('%Y', d) = 2010";
        assertThat(year.replaceAll(dated, GatedPattern.upper(dated), "$1'$2'"))
                .isEqualTo("SELECT a FROM t WHERE strftime('%Y', d) = '2010'");
    }
}

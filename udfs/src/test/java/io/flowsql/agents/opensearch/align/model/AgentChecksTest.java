package io.flowsql.agents.opensearch.align.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class AgentChecksTest {
    /** The scan that replaced a pattern compiled per table finds what {@code (?i)\btable\b} finds. */
    @Test
    void aTableIsMentionedExactlyWhereTheWordBoundaryPatternFindsIt() {
        List<String> texts = List.of("SELECT name FROM singer WHERE singer.country = 'France'",
                "SELECT * FROM Singer_in_concert", "select * from SINGER", "SELECT * FROM singers", "SELECT x FROM a.singer",
                "SELECT x FROM `singer`", "singer", "xsinger", "singer_", "SELECT 1", "", "SELECT * FROM ésinger");
        for (String table : List.of("singer", "Singer_in_concert", "concert", "a", "_x")) {
            for (String text : texts) {
                boolean regex = Pattern.compile("(?i)\\b" + Pattern.quote(table) + "\\b").matcher(text).find();
                assertThat(AgentChecks.mentions(text, table)).as("%s in %s", table, text).isEqualTo(regex);
            }
        }
        assertThat(AgentChecks.mentions("SELECT * FROM singers", "singer")).isFalse();
        assertThat(AgentChecks.mentions("SELECT * FROM SINGER", "singer")).isTrue();
    }

    /** An unqualified comparison is read as the one table's column only when exactly one table is named. */
    @Test
    void unqualifiedComparisonsTakeTheOneNamedTable() {
        assertThat(AgentChecks.comparisons("SELECT name FROM singer WHERE country = 'France'", Set.of("singer", "concert")))
                .containsExactly(new AgentChecks.Comparison("singer.country", "France"));
        assertThat(AgentChecks.comparisons("SELECT name FROM singers WHERE country = 'France'", Set.of("singer")))
                .isEmpty();
    }
}

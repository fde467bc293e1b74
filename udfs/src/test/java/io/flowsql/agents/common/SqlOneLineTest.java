package io.flowsql.agents.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SqlOneLineTest {
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    @Test
    void runsOfWhitespaceBecomeOneSpaceAndTheEndsAreStripped() {
        assertThat(SqlOneLine.of("  SELECT a,\n\t b\r\n FROM  t \u000B\f")).isEqualTo("SELECT a, b FROM t");
        assertThat(SqlOneLine.of("SELECT 1")).isEqualTo("SELECT 1");
        assertThat(SqlOneLine.of("")).isEmpty();
        assertThat(SqlOneLine.of(" \n\t ")).isEmpty();
        // only the six characters of \s are collapsed inside; other Unicode spaces stay (strip() still trims them)
        assertThat(SqlOneLine.of("\u2003SELECT\u00A0a \u2003 b\u2003")).isEqualTo("SELECT\u00A0a \u2003 b");
    }

    /** The scan gives what strip() and replaceAll("\\s+", " ") give, on random text full of whitespace. */
    @Test
    void theScanAgreesWithTheRegularExpressionOnRandomText() {
        String alphabet = "ab ;'\"\t\n\r\u000B\f\u00A0\u2003\u3000x";
        Random random = new Random(41);
        for (int round = 0; round < 20_000; round++) {
            StringBuilder text = new StringBuilder();
            for (int i = random.nextInt(12); i > 0; i--) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String sql = text.toString();
            assertThat(SqlOneLine.of(sql)).as("%s", sql.codePoints().mapToObj(Integer::toHexString).toList())
                    .isEqualTo(WHITESPACE.matcher(sql.strip()).replaceAll(" "));
        }
    }
}

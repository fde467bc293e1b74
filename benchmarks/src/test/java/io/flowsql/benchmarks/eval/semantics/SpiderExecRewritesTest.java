package io.flowsql.benchmarks.eval.semantics;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The text steps on their own, including the corners the dev cases cannot reach (quotes, comments, case). */
class SpiderExecRewritesTest {

    @Test
    void placeholderOnlyBetweenSpacesAndLowerCase() {
        assertThat(SpiderExecRewrites.plugValuePlaceholder("WHERE a = value AND b = 2")).isEqualTo("WHERE a = 1 AND b = 2");
        assertThat(SpiderExecRewrites.plugValuePlaceholder("WHERE a = 'some value here'")).isEqualTo("WHERE a = 'some 1 here'");
        assertThat(SpiderExecRewrites.plugValuePlaceholder("WHERE a = value")).isEqualTo("WHERE a = value");
        assertThat(SpiderExecRewrites.plugValuePlaceholder("SELECT value_1 FROM t")).isEqualTo("SELECT value_1 FROM t");
    }

    @Test
    void distinctKeywordsGoQuotedTextAndLongerNamesStay() {
        assertThat(SpiderExecRewrites.firstStatementWithoutDistinct("SELECT DISTINCT a FROM t"))
                .isEqualTo("SELECT  a FROM t");
        assertThat(SpiderExecRewrites.firstStatementWithoutDistinct("select count(distinct a), 'distinct', \"distinct\", distinct_x FROM t"))
                .isEqualTo("select count( a), 'distinct', \"distinct\", distinct_x FROM t");
    }

    @Test
    void firstStatementKeepsItsSemicolonAndTrailingSpacesOnly() {
        assertThat(SpiderExecRewrites.firstStatementWithoutDistinct("SELECT 1;  SELECT 2")).isEqualTo("SELECT 1;  ");
        assertThat(SpiderExecRewrites.firstStatementWithoutDistinct("SELECT ';' -- x;\n; SELECT 2")).isEqualTo("SELECT ';' -- x;\n; ");
        assertThat(SpiderExecRewrites.firstStatementWithoutDistinct("SELECT 1 /* ; */ FROM t")).isEqualTo("SELECT 1 /* ; */ FROM t");
    }

    @Test
    void orderByIsASubstringTest() {
        assertThat(SpiderExecRewrites.orderMatters("SELECT a FROM t WHERE b = 'order by'")).isTrue();
        assertThat(SpiderExecRewrites.orderMatters("SELECT a FROM t ORDER  BY a")).isFalse();
        assertThat(SpiderExecRewrites.orderMatters("SELECT a FROM t Order By a")).isTrue();
    }

    @Test
    void currentYear() {
        assertThat(SpiderExecRewrites.replaceCurrentYear("SELECT year(  curdate ( ) ) - 1")).isEqualTo("SELECT 2020- 1");
    }
}

package io.flowsql.benchmarks.eval.mmsql;

import io.flowsql.access.DataDoors;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.benchmarks.eval.SharedData;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The script's single rules on a real Spider database (concert_singer), one case each, with what accs_eval.py does. */
class AccsRulesTest {
    private static SqliteSafeExecutor executor;
    private static AccsExecMatch.Runner runner;
    private static AccsQm qm;

    @BeforeAll
    static void open() {
        Path dbs = SharedData.root().resolve("spider/database");
        executor = new SqliteSafeExecutor(new DatabaseLocator(List.of(dbs), List.of()),
                SqlExecutorConfig.defaults().withTimeoutMillis(30_000));
        runner = AccsScore.runner(DataDoors.open(executor, null));
        qm = new AccsQm(dbs);
    }

    @AfterAll
    static void close() {
        executor.close();
    }

    @Test
    void onlyTheFirstEqualsIsSpacedSoALeadingGreaterOrEqualBreaksTheQuery() {
        assertThat(AccsExecMatch.rewrite("SELECT name FROM singer WHERE age >= 30 AND name != \"x\";"))
                .isEqualTo("SELECT name FROM singer WHERE age > =  30 AND name != 'x'");
        // the prediction fails (one error); the gold has no ORDER BY, so set(None) raises: an exception, not a wrong answer
        AccsExecMatch.Outcome o = AccsExecMatch.evaluate(runner, "concert_singer", "SELECT name FROM singer WHERE age >= 30",
                "SELECT name FROM singer WHERE age > 30");
        assertThat(o.verdict()).isEqualTo(AccsExecMatch.Verdict.EXCEPTION);
        assertThat(o.failedStatements()).isEqualTo(1);
    }

    @Test
    void withOrderByInCapitalsTwoFailuresMatchAndRowOrderCounts() {
        assertThat(AccsExecMatch.evaluate(runner, "wta_1", "SELECT 1", "SELECT x FROM t ORDER BY x").verdict())
                .isEqualTo(AccsExecMatch.Verdict.MATCH);
        assertThat(AccsExecMatch.evaluate(runner, "concert_singer", "SELECT name FROM singer ORDER BY age DESC",
                "SELECT name FROM singer ORDER BY age").verdict()).isEqualTo(AccsExecMatch.Verdict.NO_MATCH);
        // lower-case order by: compared as sets, so the order no longer matters
        assertThat(AccsExecMatch.evaluate(runner, "concert_singer", "SELECT name FROM singer order by age DESC",
                "SELECT name FROM singer order by age").verdict()).isEqualTo(AccsExecMatch.Verdict.MATCH);
        // an empty prediction runs as zero rows, as Python's sqlite3 runs ""
        assertThat(AccsExecMatch.evaluate(runner, "concert_singer", "", "SELECT name FROM singer WHERE age > 999").verdict())
                .isEqualTo(AccsExecMatch.Verdict.MATCH);
    }

    @Test
    void theTokenizerJoinsComparisonsAndKeepsQuotedValues() {
        assertThat(SpiderSqlParse.tokenize("SELECT T1.Name FROM singer AS T1 WHERE T1.Age >= 30 AND T1.Country != 'France'"))
                .containsExactly("select", "t1.name", "from", "singer", "as", "t1", "where", "t1.age", ">=", "30", "and",
                        "t1.country", "!=", "\"France\"");
        assertThat(WordTokens.tokenize("count(*), 1,2 x.")).containsExactly("count", "(", "*", ")", ",", "1,2", "x", ".");
    }

    @Test
    void queryMatchComparesStructureAndValuesButNotCaseOrAliases() {
        assertThat(qm.match("concert_singer", "select Name from SINGER where Age > 20;",
                "SELECT name FROM singer WHERE age  >  20")).isTrue();
        assertThat(qm.match("concert_singer", "SELECT name FROM singer WHERE age > 21", "SELECT name FROM singer WHERE age > 20"))
                .isFalse();
        assertThat(qm.match("concert_singer", "SELECT T1.name FROM singer AS T1 JOIN singer_in_concert AS T2 ON "
                + "T1.singer_id = T2.singer_id", "SELECT T2.name FROM singer_in_concert AS T1 JOIN singer AS T2 ON "
                + "T1.singer_id = T2.singer_id")).isTrue();
        assertThatThrownBy(() -> qm.match("concert_singer", "SELECT nope FROM singer", "SELECT name FROM singer"))
                .isInstanceOf(SpiderSqlParse.ParseFailure.class).hasMessageContaining("Error col");
        assertThatThrownBy(() -> qm.match("wta_1", "SELECT 1", "SELECT 1")).hasMessageContaining("no database wta_1");
    }

    @Test
    void pythonTruthinessAndLayoutChecks() throws Exception {
        ObjectMapper m = new ObjectMapper();
        assertThat(PyJson.truthy(m.readTree("\"False\""))).isTrue();
        assertThat(PyJson.truthy(m.readTree("false"))).isFalse();
        assertThat(PyJson.truthy(m.readTree("0"))).isFalse();
        assertThat(PyJson.truthy(m.readTree("[]"))).isFalse();
        Path dir = Files.createDirectories(Path.of("target", "accs-rules"));
        Path lines = Files.writeString(dir.resolve("spider.json"), "[\"SELECT 1\"]");
        assertThatThrownBy(() -> AccsOutputFile.read(lines)).hasMessageContaining("element 0 is not an object");
        Path ok = Files.writeString(dir.resolve("ok.json"), "[{\"db_name\": \"concert_singer\", \"turns\": [{\"isuser\": true, "
                + "\"text\": \"q\", \"type\": \"\"}, {\"isuser\": false, \"query\": \"SELECT count(*) FROM singer\", "
                + "\"predict_sql\": \"SELECT COUNT(*) FROM singer;\", \"rewritten_outputs\": \"[]\"}]}]");
        AccsFigures f = new AccsReplay(runner, SharedData.root().resolve("spider/database"), 1).replay(AccsOutputFile.read(ok));
        assertThat(List.of(f.duem(), f.em(), f.allQa(), f.allSqlA(), f.qm().qm(), f.iduem(), f.qm().im()))
                .containsExactly(1, 1, 1, 1, 1, 1, 1);
    }
}

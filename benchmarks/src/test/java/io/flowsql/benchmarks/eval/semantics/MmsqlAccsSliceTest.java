package io.flowsql.benchmarks.eval.semantics;

import io.flowsql.access.DataDoors;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flowsql.benchmarks.eval.SharedData;
import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkLoaders;
import io.flowsql.benchmarks.eval.load.CosqlLoader;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.benchmarks.eval.metrics.MmsqlAccsMetrics;
import io.flowsql.benchmarks.eval.metrics.PrecisionRecall;
import io.flowsql.benchmarks.eval.score.Prediction;
import io.flowsql.benchmarks.eval.score.PredictionFormat;
import io.flowsql.benchmarks.eval.score.Scorer;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * MMSQL's test-suite layout and output files, scored with MMSQL's script rules on the first four dialogues of the real
 * test suite (20 user turns) with predictions written here, turn by turn; the expected figures are counted by hand below.
 */
class MmsqlAccsSliceTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void theLoaderReadsTheTestSuiteLayoutWithLowerCaseIsuser() {
        Benchmark mmsql = new BenchmarkLoaders(SharedData.root()).load("mmsql-test", null);
        assertThat(mmsql.items()).hasSize(808);
        assertThat(mmsql.items().stream().map(i -> i.dialogueId()).distinct().count()).isEqualTo(149);
        // 554 answerable turns and 2 ambiguous ones owe SQL; the unanswerable turn whose "query" is an explanation owes none
        assertThat(mmsql.items().stream().filter(i -> i.owesSql()).count()).isEqualTo(556);
        assertThat(mmsql.items().get(0).questionType()).isEqualTo("unanswerable");
        assertThat(mmsql.items().get(0).owesSql()).isFalse();
    }

    /** A system turn's prediction in MMSQL's output layout. */
    private static void predict(ArrayNode turns, int userTurn, String type, String predictSql, String predictText) {
        int seen = -1;
        for (int i = 0; i < turns.size(); i++) {
            if (CosqlLoader.isUser(turns.get(i)) && ++seen == userTurn) {
                ObjectNode system = (ObjectNode) turns.get(i + 1);
                system.put("predict_type", type);
                if (predictSql != null) {
                    system.put("predict_sql", predictSql);
                }
                system.put("predict", predictText == null ? "" : predictText);
                return;
            }
        }
        throw new IllegalArgumentException("no user turn " + userTurn);
    }

    @Test
    void tdexExIexAndTypeF1OnAFourDialogueSliceAsCountedByHand() throws Exception {
        ArrayNode all = (ArrayNode) MAPPER.readTree(SharedData.root().resolve("mmsql/MMSQL_test.json").toFile());
        ArrayNode slice = MAPPER.createArrayNode();
        for (int d = 0; d < 4; d++) {
            slice.add(all.get(d).deepCopy());
        }
        Path dir = Files.createDirectories(Path.of("target", "mmsql-slice"));
        Path suite = dir.resolve("MMSQL_test.json");
        MAPPER.writeValue(suite.toFile(), slice);

        ArrayNode out = slice.deepCopy();
        // D0 car_1: 5 user turns
        ArrayNode d0 = (ArrayNode) out.get(0).get("turns");
        predict(d0, 0, "unanswerable", null, "The database has no colour.");                       // type right: TDEX
        predict(d0, 1, "answerable", null, "Here:\n```sql\nSELECT Count(*) ,  T2.FullName  FROM MODEL_LIST AS T1 JOIN "
                + "CAR_MAKERS AS T2 ON T1.Maker  =  T2.Id GROUP BY T2.id;\n```\nDone.");                     // fenced gold: EX right
        predict(d0, 2, "answerable", "SELECT Model FROM model_list", null);                            // gold unanswerable: not run
        predict(d0, 3, "answerable", "SELECT Count(*), T2.FullName FROM MODEL_LIST AS T1 JOIN CAR_MAKERS AS T2 ON "
                + "T1.Maker = T2.Id GROUP BY T2.id having count(*) >= 3", null);                          // columns swapped: EX wrong (no permutation), IEX lost
        predict(d0, 4, "improper", null, "Bye!");                                                       // TDEX
        // D1 cre_Doc_Template_Mgt: 4 user turns
        ArrayNode d1 = (ArrayNode) out.get(1).get("turns");
        predict(d1, 0, "answerable", "SELECT count(template_id) FROM Documents", null);                 // 15 vs count(distinct) 12: wrong (DISTINCT kept), IEX lost
        predict(d1, 1, "answerable", "SELECT count(template_id) FROM Documents GROUP BY template_id HAVING count(*) > 1;", null); // ';' removed: right
        predict(d1, 2, "unanswerable", null, "I cannot.");                                             // answerable predicted unanswerable
        predict(d1, 3, "improper", null, "Not about the data.");                                        // TDEX
        // D2 student_transcripts_tracking: 7 user turns
        ArrayNode d2 = (ArrayNode) out.get(2).get("turns");
        predict(d2, 0, "answerable", "SELECT T1.first_name FROM Students AS T1 JOIN Addresses AS T2 ON "
                + "T1.permanent_address_id = T2.address_id WHERE T2.country = \"Haiti\"", null);         // " -> ': right
        predict(d2, 1, "answerable", "SELECT first_name FROM Students WHERE cell_mobile_number = '09700166582'", null); // right
        predict(d2, 2, "ambiguous", null, "Which address do you mean?");                                 // TDEX
        predict(d2, 3, "ambiguous", null, "Permanent or current?");                                      // answerable predicted ambiguous: no EX, IEX kept (script quirk)
        predict(d2, 4, "answerable", "SELECT email_address FROM Students where cell_mobile_number = `09700166582`", null); // ` -> ': right
        predict(d2, 5, "improper", null, "I cannot send e-mail.");                                       // TDEX
        predict(d2, 6, "answerable", "", "Sure.");                                                      // improper predicted answerable
        // D3 concert_singer: 4 user turns
        ArrayNode d3 = (ArrayNode) out.get(3).get("turns");
        predict(d3, 0, "answerable", "SELECT name FROM stadium EXCEPT SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 "
                + "ON T1.stadium_id = T2.stadium_id WHERE T1.year = 2014 ORDER BY name DESC", null);     // gold has no ORDER BY: sets, right
        predict(d3, 1, "answerable", "select Capacity from stadium where name >= 'Balmoor' and name <= 'Balmoor'", null); // first '=' split: '> =' fails
        // user turn 2 of D3 gets no prediction at all: the script's default, answerable with no SQL: wrong
        predict(d3, 3, "improper", null, "Glad you like it.");                                         // TDEX
        Path output = dir.resolve("output.json");
        MAPPER.writeValue(output.toFile(), out);

        Benchmark bench = new CosqlLoader().load(suite, SharedData.root().resolve("spider/database"), "mmsql-test");
        assertThat(PredictionFormat.detect(output)).isEqualTo(PredictionFormat.MMSQL_JSON);
        List<Prediction> predictions = PredictionFormat.MMSQL_JSON.read(output);
        assertThat(predictions).hasSize(19);
        List<ItemOutcome> outcomes;
        List<ItemOutcome> spiderOutcomes;
        try (SqliteSafeExecutor executor = new SqliteSafeExecutor(new DatabaseLocator(List.of(bench.databaseRoot()), List.of()),
                SqlExecutorConfig.defaults())) {
            outcomes = new Scorer(DataDoors.open(executor, null), new MmsqlAccsExec(), null).score(bench, predictions, n -> {});
            spiderOutcomes = new Scorer(DataDoors.open(executor, null), new SpiderTestSuiteExec(), null).score(bench, predictions, n -> {});
        }
        MmsqlAccsMetrics m = MmsqlAccsMetrics.of(outcomes);
        // user turns: 5 + 4 + 7 + 4 = 20
        // TDEX: D0 t0,t1,t4 (3) + D1 t1,t3 (2) + D2 t0,t1,t2,t4,t5 (5) + D3 t0,t3 (2) = 12
        assertThat(m.tdex().correct()).isEqualTo(12);
        assertThat(m.tdex().total()).isEqualTo(20);
        // EX over turns answerable in both: D0 t1,t3 + D1 t0,t1 + D2 t0,t1,t4 + D3 t0,t1,t2 = 10; right: D0 t1, D1 t1, D2 t0,t1,t4, D3 t0 = 6
        assertThat(m.ex().correct()).isEqualTo(6);
        assertThat(m.ex().total()).isEqualTo(10);
        // IEX: D0 (t3 wrong), D1 (t0 wrong, t2 unanswerable) and D3 (t1, t2 wrong) lost; D2 kept despite t3 -> ambiguous
        assertThat(m.iex().correct()).isEqualTo(1);
        assertThat(m.iex().total()).isEqualTo(4);
        // gold 12 answerable / 2 unanswerable / 1 ambiguous / 5 improper; predicted 12 / 2 / 2 / 4; right 10 / 1 / 1 / 4
        PrecisionRecall answerable = m.types().get("answerable");
        assertThat(answerable.precision()).isCloseTo(10 / 12.0, within(1e-9));
        assertThat(answerable.recall()).isCloseTo(10 / 12.0, within(1e-9));
        assertThat(m.types().get("unanswerable").f1()).isCloseTo(0.5, within(1e-9));
        assertThat(m.types().get("ambiguous").f1()).isCloseTo(2 * 0.5 * 1.0 / 1.5, within(1e-9));
        assertThat(m.types().get("improper").f1()).isCloseTo(2 * 1.0 * 0.8 / 1.8, within(1e-9));
        assertThat(m.averageF1()).isCloseTo((10 / 12.0 + 0.5 + 2 / 3.0 + 1.6 / 1.8) / 4, within(1e-9));

        // the same prediction under the Spider evaluator's rules: DISTINCT is dropped from the gold, columns may be permuted
        assertThat(verdict(outcomes, "d1-0")).isFalse();
        assertThat(verdict(spiderOutcomes, "d1-0")).isTrue();
        assertThat(verdict(outcomes, "d0-3")).isFalse();
        assertThat(verdict(spiderOutcomes, "d0-3")).isTrue();
    }

    private static boolean verdict(List<ItemOutcome> outcomes, String id) {
        return outcomes.stream().filter(o -> o.item().id().equals(id)).findFirst().orElseThrow().correct();
    }
}

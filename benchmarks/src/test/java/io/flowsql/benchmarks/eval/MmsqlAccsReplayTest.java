package io.flowsql.benchmarks.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@code score --semantics mmsql-accs} on MMSQL's published Llama-3-8B one-shot output
 * ({@code ../shared/data/mmsql/output_Llama-3-8B.json}, byte for byte {@code outputs/one-shot/gpt4_scored_Llama-3-8B.json} of
 * mcxiaoxiao/MMSQL at 2d959c9) must print every figure MMSQL's own {@code accs_eval.py} prints for it.
 *
 * <p>How the expected figures were obtained: the {@code paper} branch of mcxiaoxiao/MMSQL (commit 2d959c9, accs_eval.py
 * 35,409 bytes, tools/process_sql.py) was run unmodified with Debian's python3 3.11, python3-nltk 3.8, python3-tqdm and
 * python3-pyfiglet, from a folder where {@code datasets/cosql_dataset/database/<db>/<db>.sqlite} are the Spider databases
 * of ../shared/data/spider/database (wta_1 absent, as here); its module globals were read after the run (duem, allqa,
 * em_count, allsqla, allsqlqa, error_count, iduem_count, gold/predict/correct counts, rqs sums and counts). It printed:
 * DUEM 512/814 62.9 %, IDUEM 48/814 5.9 %, EM 334 (Total column 557) 64.4 %, ERROR 99 (557) 19.1 %, Answerable
 * 88.3/93.2/90.7 %, Unanswerable 21.4/60.0/31.6 %, Ambiguous 83.3/23.3/36.4 %, Improper 100.0/96.7/98.3 %, average F1
 * 64.2 %, RQS 4.42 / 1.64 / 7.59, overall 4.55, QM 225 (557) 43.4 %, ACCS 403/814 49.5 %, IACCS 5/149 3.4 %, IM 14/149
 * 9.4 %, turn-wise QM 41/122, 50/121, 45/120, 42/91, 17/44, 16/28, 8/19, 4/6, 1/3, 1/1, 0/1, 0/1 (>4: 47/103), Amb.Q+ans
 * 10/59, Amb.Q+clarify+ans 71/149, Ans.Q+Amb 0/4.
 * The counts below are those globals; each percentage is the script's own formula on them.
 */
class MmsqlAccsReplayTest {
    private static final Path OUT = Path.of("target", "mmsql-accs-replay");
    private static JsonNode report;
    private static String console;
    private static int exit;

    @BeforeAll
    static void scoreTheLlama3File() throws Exception {
        PrintStream saved = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            exit = EvalCli.commandLine().execute("score", "--benchmark", "mmsql-test", "--data", SharedData.root().toString(),
                    "--predictions", SharedData.root().resolve("mmsql/output_Llama-3-8B.json").toString(),
                    "--out", OUT.toString(), "--history", "gold");
        } finally {
            System.setOut(saved);
        }
        console = captured.toString(StandardCharsets.UTF_8);
        report = new ObjectMapper().readTree(OUT.resolve("report.json").toFile());
    }

    @Test
    void everyFigureTheScriptPrints() {
        assertThat(exit).as(console).isZero();
        assertThat(report.at("/semantics").asText()).isEqualTo("mmsql-accs");
        JsonNode a = report.at("/accs");
        assertThat(counts(a.at("/tdex_duem"))).containsExactly(512, 814);
        assertThat(counts(a.at("/iex_iduem_per_user_turn"))).containsExactly(48, 814);
        assertThat(counts(a.at("/iex_iduem_per_dialogue"))).containsExactly(48, 149);
        assertThat(counts(a.at("/ex_em"))).containsExactly(334, 519);
        assertThat(a.at("/ex_em_printed_total").asInt()).isEqualTo(557);
        assertThat(counts(a.at("/error"))).containsExactly(99, 519);
        assertThat(a.at("/user_turns").asInt()).isEqualTo(814);
        assertThat(a.at("/dialogues").asInt()).isEqualTo(149);
        // the script's gold / predicted / correct counts per type
        assertThat(types(a, "answerable")).containsExactly(557, 588, 519);
        assertThat(types(a, "unanswerable")).containsExactly(20, 56, 12);
        assertThat(types(a, "ambiguous")).containsExactly(86, 24, 20);
        assertThat(types(a, "improper")).containsExactly(151, 146, 146);
        assertThat(a.at("/average_type_f1").asDouble()).isCloseTo(0.6422, within(0.0005));
        // the file's own RQS (the paper's GPT-4 judge), as the script averages it
        assertThat(a.at("/file_rqs/unanswerable/sum").asInt()).isEqualTo(84);
        assertThat(a.at("/file_rqs/unanswerable/turns").asInt()).isEqualTo(19);
        assertThat(a.at("/file_rqs/ambiguous/sum").asInt()).isEqualTo(139);
        assertThat(a.at("/file_rqs/ambiguous/turns").asInt()).isEqualTo(85);
        assertThat(a.at("/file_rqs/improper/sum").asInt()).isEqualTo(129);
        assertThat(a.at("/file_rqs/improper/turns").asInt()).isEqualTo(17);
        assertThat(counts(a.at("/qm"))).containsExactly(225, 519);
        assertThat(counts(a.at("/accs"))).containsExactly(403, 814);
        assertThat(counts(a.at("/iaccs"))).containsExactly(5, 149);
        assertThat(counts(a.at("/im"))).containsExactly(14, 149);
        int[][] byTurn = {{41, 122}, {50, 121}, {45, 120}, {42, 91}, {17, 44}, {16, 28}, {8, 19}, {4, 6}, {1, 3}, {1, 1}, {0, 1}, {0, 1}};
        for (int t = 0; t < byTurn.length; t++) {
            assertThat(counts(a.at("/qm_by_turn/" + (t + 1)))).as("turn " + (t + 1)).containsExactly(byTurn[t][0], byTurn[t][1]);
        }
        assertThat(a.at("/amb_q_ans_matched").asInt()).isEqualTo(10);
        assertThat(a.at("/rewritten_ans").asInt()).isEqualTo(4);
        assertThat(a.at("/rewritten_ans_matched").asInt()).isZero();
        assertThat(a.at("/amb_q_ans_turns").asInt()).isEqualTo(59);
        assertThat(a.at("/amb_q_clarify_ans").asInt()).isEqualTo(71);
        // the printed lines, to the script's one decimal
        assertThat(console).contains("| DUEM [TDEX] | 512 | 814 | 62.9% |", "| IDUEM [IEX] | 48 | 814 | 5.9% |",
                "| EM [EX] | 334 | 557 | 64.4% |", "| ERROR | 99 | 557 | 19.1% |", "| Answerable | 88.3% | 93.2% | 90.7% |",
                "| Unanswerable | 21.4% | 60.0% | 31.6% |", "| Ambiguous | 83.3% | 23.3% | 36.4% |",
                "| Improper | 100.0% | 96.7% | 98.3% |", "| Average F1 | | | 64.2% |", "| Unanswerable | 4.42 |",
                "| Ambiguous | 1.64 |", "| Improper | 7.59 |", "| Overall Average | 4.55 |", "| QM | 225 | 557 | 43.4% |",
                "| ACCS | 403 | 814 | 49.5% |", "| IACCS | 5 | 149 | 3.4% |", "| IM | 14 | 149 | 9.4% |", "| >4 | 47 | 103 | 45.6% |",
                "| Amb.Q+ans | 10 | 59 | 16.9% |", "| Amb.Q+clarify+ans | 71 | 149 | 47.7% |", "| Ans.Q+Amb | 0 | 4 | 0.0% |",
                "[mmsql-accs] TDEX 62.9% (512/814), EX 64.4% (334/519), IEX 5.9% (48/814");
    }

    /** The published file was made with gold history; the reports say so beside the figures users compare with the paper's. */
    @Test
    void theDialogueProtocolIsPrintedBesideTheFigures() throws Exception {
        assertThat(report.at("/protocol").asText()).isEqualTo(HistoryProtocol.GOLD.description()).startsWith("gold history");
        assertThat(console).contains("dialogue protocol: gold history");
        assertThat(java.nio.file.Files.readString(OUT.resolve("report.md"))).contains("Dialogue protocol: gold history");
    }

    @Test
    void perTurnVerdictsAddUpAndShowTheScriptsRules() {
        List<JsonNode> turns = new ArrayList<>();
        report.at("/turns").forEach(turns::add);
        assertThat(turns).hasSize(814);
        assertThat(turns.stream().filter(t -> t.path("tdex").asBoolean()).count()).isEqualTo(512);
        assertThat(turns.stream().filter(t -> t.path("ex").asBoolean()).count()).isEqualTo(334);
        assertThat(turns.stream().mapToInt(t -> t.path("failed_statements").asInt()).sum()).isEqualTo(99);
        assertThat(turns.stream().filter(t -> t.path("qm").asText().equals("match")).count()).isEqualTo(225);
        assertThat(turns.stream().filter(t -> t.path("accs").asBoolean()).count()).isEqualTo(403);
        // the worked dialogue of docs/EVALUATION.md (file position 9, world_1): an ambiguous turn answered with SQL gets
        // no credit but does not break IDUEM; the three answerable turns match, so the dialogue counts for IEX
        List<JsonNode> d9 = turns.stream().filter(t -> t.path("dialogue").asInt() == 9).toList();
        assertThat(d9).extracting(t -> t.path("type").asText() + ">" + t.path("predicted_type").asText() + ":" + t.path("em").asText())
                .containsExactly("answerable>answerable:match", "ambiguous>answerable:not-executed",
                        "answerable>answerable:match", "answerable>answerable:match");
        assertThat(d9).noneMatch(t -> t.path("breaks_iex").asBoolean());
        assertThat(d9.get(1).path("file_rqs").asInt()).isZero();
        // QM: the first turn's prediction differs from the gold only in the aggregate's case and quotes: an exact-set match
        assertThat(d9.get(0).path("qm").asText()).isEqualTo("match");
        // wta_1 is not here: both statements fail and count in ERROR; without ORDER BY in the gold, set(None) raises, which the
        // script catches: no EM credit and the dialogue is not broken
        JsonNode wta = turns.stream().filter(t -> t.path("db_id").asText().equals("wta_1")
                && t.path("em").asText().equals("exception")).findFirst().orElseThrow();
        assertThat(wta.path("failed_statements").asInt()).isEqualTo(2);
        assertThat(wta.path("breaks_iex").asBoolean()).isFalse();
    }

    @Test
    void aFileThatIsNotMmsqlsLayoutIsRefusedWithTheReason() throws Exception {
        Path bird = Files.createDirectories(OUT.resolve("in")).resolve("predict_dev.json");
        Files.writeString(bird, "{\"0\": \"SELECT 1\\t----- bird -----\\tdb\"}");
        PrintStream saved = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            code = EvalCli.commandLine().execute("score", "--benchmark", "mmsql-test", "--data", SharedData.root().toString(),
                    "--format", "mmsql", "--predictions", bird.toString(), "--out", OUT.resolve("refused").toString());
        } finally {
            System.setErr(saved);
        }
        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("is refused: not MMSQL's output layout")
                .contains("a JSON object (BIRD's predict_dev.json is one)");
        assertThat(OUT.resolve("refused/report.json")).doesNotExist();
    }

    @Test
    void ourJudgesRqsIsPrintedBesideTheFilesOwn() throws Exception {
        // the first 12 dialogues of the same file: the replay's file RQS, then the simulator on loopback as our judge
        ObjectMapper mapper = new ObjectMapper();
        JsonNode all = mapper.readTree(SharedData.root().resolve("mmsql/output_Llama-3-8B.json").toFile());
        com.fasterxml.jackson.databind.node.ArrayNode first = mapper.createArrayNode();
        for (int d = 0; d < 12; d++) {
            first.add(all.get(d));
        }
        Path slice = Files.createDirectories(OUT.resolve("in")).resolve("llama-first-12.json");
        mapper.writeValue(slice.toFile(), first);
        PrintStream saved = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int code;
        try (io.flowsql.simulator.SimulatedLlmServer judge = io.flowsql.simulator.SimulatedLlmServer.start(
                io.flowsql.simulator.SimulatorConfig.builder().port(0)
                        .responders(io.flowsql.simulator.agents.AgentResponders.all()).build())) {
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            code = EvalCli.commandLine().execute("score", "--benchmark", "mmsql-test", "--data", SharedData.root().toString(),
                    "--predictions", slice.toString(), "--rqs-judge", judge.baseUrl(), "--rqs-model", "judge",
                    "--out", OUT.resolve("rqs").toString());
        } finally {
            System.setOut(saved);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        assertThat(code).as(out).isZero();
        JsonNode accs = mapper.readTree(OUT.resolve("rqs/report.json").toFile()).at("/accs/file_rqs/overall");
        JsonNode both = mapper.readTree(OUT.resolve("rqs/rqs.json").toFile());
        assertThat(both.path("file_rqs").asDouble()).isEqualTo(accs.asDouble());
        assertThat(both.path("judge_model").asText()).isEqualTo("judge");
        assertThat(both.path("judged").asInt()).isPositive();
        assertThat(out).contains("RQS: the file's own " + String.format(java.util.Locale.ROOT, "%.2f", accs.asDouble()))
                .contains("our judge (judge)");
    }

    private static List<Integer> counts(JsonNode acc) {
        return List.of(acc.path("correct").asInt(), acc.path("total").asInt());
    }

    private static List<Integer> types(JsonNode accs, String type) {
        JsonNode t = accs.at("/types/" + type);
        return List.of(t.path("gold").asInt(), t.path("predicted").asInt(), t.path("correct").asInt());
    }
}

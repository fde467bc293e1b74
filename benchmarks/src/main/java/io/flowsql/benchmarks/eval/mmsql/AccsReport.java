package io.flowsql.benchmarks.eval.mmsql;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The replay's figures as {@code accs_eval.py} prints them (its tables A, B, E and the counts of D and F, each figure
 * also under the paper's name) and {@code report.json} / {@code report.md} with one verdict per user turn.
 */
public final class AccsReport {
    public static final String SEMANTICS = "mmsql-accs";
    public static final String DESCRIPTION = "MMSQL's accs_eval.py (paper branch, 2d959c9) replayed on the output file itself: "
            + "its turns, gold and predict_sql, every turn in the denominators";

    private AccsReport() {}

    /** The headline: semantics and the paper's three figures with the script's counts. */
    public static String headline(AccsFigures f, String benchmark) {
        return String.format(Locale.ROOT, "%s [%s] TDEX %.1f%% (%d/%d), EX %.1f%% (%d/%d), IEX %.1f%% (%d/%d user turns; "
                        + "%.1f%% of %d dialogues), QM %.1f%% (%d/%d), ACCS %.1f%% (%d/%d), ERROR %.1f%% (%d/%d), average type F1 %.1f%%, file RQS %.2f — scored %d user "
                        + "turns of %d dialogues, none left out", benchmark, SEMANTICS, f.duemPercent(), f.duem(), f.allQa(),
                f.emPercent(), f.em(), f.allSqlA(), f.iduemPercent(), f.iduem(), f.allQa(), f.iduemPerDialoguePercent(),
                f.dialogues(), f.qmPercent(), f.qm().qm(), f.allSqlA(), f.accsPercent(), f.qm().accs(), f.allQa(),
                f.errorPercent(), f.errors(), f.allSqlA(), 100 * f.averageF1(), f.rqsOverall(), f.allQa(),
                f.dialogues());
    }

    /** The script's tables, with its own row layout (its "Total" column and its percentage, which use different counts). */
    public static String tables(AccsFigures f) {
        StringBuilder b = new StringBuilder();
        b.append("A. Overall Result Analysis (accs_eval.py; [paper name])\n");
        b.append("| Metric | Count | Total | Percentage |\n|--------|-------|-------|------------|\n");
        row(b, "DUEM [TDEX]", f.duem(), f.allQa(), f.duemPercent());
        row(b, "IDUEM [IEX]", f.iduem(), f.allQa(), f.iduemPercent());
        row(b, "QM", f.qm().qm(), f.allSqlQa(), f.qmPercent());
        row(b, "EM [EX]", f.em(), f.allSqlQa(), f.emPercent());
        row(b, "ACCS", f.qm().accs(), f.allQa(), f.accsPercent());
        row(b, "IACCS", f.qm().iaccs(), f.dialogues(), AccsFigures.pct(f.qm().iaccs(), f.dialogues()));
        row(b, "ERROR", f.errors(), f.allSqlQa(), f.errorPercent());
        row(b, "IM", f.qm().im(), f.dialogues(), AccsFigures.pct(f.qm().im(), f.dialogues()));
        b.append(String.format(Locale.ROOT, "QM, EM and ERROR percentages are over %d turns answerable in gold and prediction (the "
                + "script prints %d, the gold-answerable turns, as Total); IDUEM over dialogues: %d/%d = %.1f%%%n",
                f.allSqlA(), f.allSqlQa(), f.iduem(), f.dialogues(), f.iduemPerDialoguePercent()));
        b.append("B. Category Analysis\n| Category | Precision | Recall | F1 Score |\n|---|---|---|---|\n");
        for (String type : AccsFigures.TYPES) {
            double[] p = f.prf(type);
            b.append(String.format(Locale.ROOT, "| %s | %.1f%% | %.1f%% | %.1f%% |%n", capital(type), 100 * p[0], 100 * p[1],
                    100 * p[2]));
        }
        b.append(String.format(Locale.ROOT, "| Average F1 | | | %.1f%% |%n", 100 * f.averageF1()));
        b.append("C. Turn-wise QM Statistics\n| Turn | QM Count | Total | Percentage |\n|---|---|---|---|\n");
        int late = 0;
        int lateTotal = 0;
        for (Map.Entry<Integer, int[]> e : f.qm().byTurn().entrySet()) {
            row(b, String.valueOf(e.getKey()), e.getValue()[0], e.getValue()[1], AccsFigures.pct(e.getValue()[0], e.getValue()[1]));
            if (e.getKey() > 4) {
                late += e.getValue()[0];
                lateTotal += e.getValue()[1];
            }
        }
        row(b, ">4", late, lateTotal, AccsFigures.pct(late, lateTotal));
        b.append("D. Answerable QA vs. Ambiguous QA turns QM Analysis\n| Metric | Count | Total | Percentage |\n|---|---|---|---|\n");
        row(b, "Ans.Q+ans", f.qm().qm(), f.allSqlQa(), f.qmPercent());
        if (f.ambAnswerCount() == 0) {
            b.append("| Amb.Q+ans | 0 | 0 | (the script stops here: division by zero; tables E and F are not printed) |\n");
        } else {
            row(b, "Amb.Q+ans", f.qm().ambAnswerMatched(), f.ambAnswerCount(),
                    AccsFigures.pct(f.qm().ambAnswerMatched(), f.ambAnswerCount()));
        }
        row(b, "Amb.Q+clarify+ans", f.ambClarifyAnswer(), f.dialogues(), AccsFigures.pct(f.ambClarifyAnswer(), f.dialogues()));
        b.append("E. RQS Averages by Category (the file's own RQS, the paper's GPT-4 judge)\n| Category | Average RQS |\n|---|---|\n");
        for (String type : AccsFigures.RQS_TYPES) {
            double a = f.rqsAverage(type);
            b.append("| ").append(capital(type)).append(" | ")
                    .append(Double.isNaN(a) ? "N/A" : String.format(Locale.ROOT, "%.2f", a)).append(" |\n");
        }
        b.append(String.format(Locale.ROOT, "| Overall Average | %.2f |%n", f.rqsOverall()));
        b.append("F. Rewritten QA Analysis\n| Metric | Count | Total | Percentage |\n|---|---|---|---|\n");
        if (f.rewrittenAns() > 0) {
            row(b, "Ans.Q+Amb", f.rewrittenAnsCorrect(), f.rewrittenAns(), AccsFigures.pct(f.rewrittenAnsCorrect(), f.rewrittenAns()));
        }
        if (f.rewrittenAmb() > 0) {
            row(b, "Amb.Q+Amb", f.qm().rewrittenAmbCorrect(), f.rewrittenAmb(),
                    AccsFigures.pct(f.qm().rewrittenAmbCorrect(), f.rewrittenAmb()));
        }
        return b.toString();
    }

    private static void row(StringBuilder b, String name, int count, int total, double pct) {
        b.append(String.format(Locale.ROOT, "| %s | %d | %d | %.1f%% |%n", name, count, total, pct));
    }

    private static String capital(String s) {
        return s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
    }

    /** Writes report.json (every figure and every user turn's verdict) and report.md; returns the files. */
    public static List<Path> write(AccsFigures f, String benchmark, String predictions, String protocol, Path out) {
        try {
            Files.createDirectories(out);
            Path json = out.resolve("report.json");
            Files.writeString(json, json(f, benchmark, predictions, protocol));
            Path md = out.resolve("report.md");
            Files.writeString(md, "# " + headline(f, benchmark) + "\n\nSemantics `" + SEMANTICS + "`: " + DESCRIPTION
                    + ".\n\nDialogue protocol: " + protocol + ".\n\n```\n" + tables(f) + "```\n\nPer-turn verdicts: `report.json`, `turns`.\n");
            return List.of(md, json);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the reports to " + out, e);
        }
    }

    static String json(AccsFigures f, String benchmark, String predictions, String protocol) {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = mapper.createObjectNode();
        root.put("benchmark", benchmark).put("predictions", predictions).put("semantics", SEMANTICS)
                .put("semantics_description", DESCRIPTION).put("headline", headline(f, benchmark))
                .put("protocol", protocol);
        ObjectNode m = root.putObject("accs");
        m.set("tdex_duem", acc(mapper, f.duem(), f.allQa()));
        m.set("ex_em", acc(mapper, f.em(), f.allSqlA()));
        m.put("ex_em_printed_total", f.allSqlQa());
        m.set("iex_iduem_per_user_turn", acc(mapper, f.iduem(), f.allQa()));
        m.set("iex_iduem_per_dialogue", acc(mapper, f.iduem(), f.dialogues()));
        m.set("error", acc(mapper, f.errors(), f.allSqlA()));
        m.put("user_turns", f.allQa()).put("gold_answerable", f.allSqlQa()).put("answerable_in_both", f.allSqlA())
                .put("dialogues", f.dialogues());
        m.set("qm", acc(mapper, f.qm().qm(), f.allSqlA()));
        m.set("accs", acc(mapper, f.qm().accs(), f.allQa()));
        m.set("iaccs", acc(mapper, f.qm().iaccs(), f.dialogues()));
        m.set("im", acc(mapper, f.qm().im(), f.dialogues()));
        ObjectNode byTurn = m.putObject("qm_by_turn");
        f.qm().byTurn().forEach((turn, c) -> byTurn.set(String.valueOf(turn), acc(mapper, c[0], c[1])));
        ObjectNode types = m.putObject("types");
        for (String type : AccsFigures.TYPES) {
            double[] p = f.prf(type);
            int[] c = f.typeCounts().get(type);
            types.putObject(type).put("precision", p[0]).put("recall", p[1]).put("f1", p[2]).put("gold", c[0])
                    .put("predicted", c[1]).put("correct", c[2]);
        }
        m.put("average_type_f1", f.averageF1());
        ObjectNode rqs = m.putObject("file_rqs");
        for (String type : AccsFigures.RQS_TYPES) {
            rqs.putObject(type).put("sum", f.rqsSums().getOrDefault(type, 0)).put("turns", f.rqsCounts().getOrDefault(type, 0))
                    .put("average", f.rqsAverage(type));
        }
        rqs.put("overall", f.rqsOverall());
        m.put("amb_q_ans_matched", f.qm().ambAnswerMatched()).put("rewritten_amb_matched", f.qm().rewrittenAmbCorrect());
        m.put("amb_q_ans_turns", f.ambAnswerCount()).put("amb_q_clarify_ans", f.ambClarifyAnswer())
                .put("rewritten_ans", f.rewrittenAns()).put("rewritten_ans_matched", f.rewrittenAnsCorrect())
                .put("rewritten_amb", f.rewrittenAmb());
        ArrayNode turns = root.putArray("turns");
        for (AccsTurn t : f.turns()) {
            ObjectNode n = turns.addObject().put("dialogue", t.dialogue()).put("turn_index", t.turnIndex())
                    .put("turn", t.turn()).put("db_id", t.db()).put("type", t.goldType())
                    .put("predicted_type", t.predictedType()).put("em", t.em()).put("tdex", t.tdex()).put("ex", t.ex())
                    .put("breaks_iex", t.breaksIex()).put("qm", t.qm()).put("accs", t.accs())
                    .put("failed_statements", t.failedStatements()).put("gold", t.gold())
                    .put("prediction", t.prediction()).put("error", t.error());
            if (t.fileRqs() != null) {
                n.put("file_rqs", t.fileRqs());
            }
        }
        try {
            return mapper.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ObjectNode acc(ObjectMapper mapper, int n, int d) {
        return mapper.createObjectNode().put("correct", n).put("total", d).put("percent", AccsFigures.pct(n, d));
    }

    /** Lines for the console: the headline, the tables and the files written. */
    static List<String> console(AccsFigures f, String benchmark, String protocol, List<Path> files) {
        List<String> lines = new ArrayList<>();
        lines.add(tables(f));
        lines.add(headline(f, benchmark));
        lines.add("dialogue protocol: " + protocol);
        files.forEach(p -> lines.add("wrote " + p));
        return lines;
    }
}

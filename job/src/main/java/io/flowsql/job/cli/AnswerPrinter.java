package io.flowsql.job.cli;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.ResultPreview;

import java.io.PrintWriter;
import java.util.List;

/** Renders an answer for a terminal: question, status, SQL, and the first rows as a small table. */
final class AnswerPrinter {
    private final PrintWriter out;
    private final int maxRows;

    AnswerPrinter(PrintWriter out, int maxRows) {
        this.out = out;
        this.maxRows = maxRows;
    }

    void print(AnswerEvent a) {
        out.println("── " + a.requestId + " [" + a.dbId + "] " + a.question);
        out.println("   status: " + a.status + (a.questionType == null ? "" : " (" + a.questionType + ")")
                + (a.simulated ? "  [simulated LLM]" : ""));
        if (a.sql != null) {
            out.println("   SQL:    " + a.sql.replaceAll("\\s+", " "));
        }
        if (a.response != null) {
            out.println("   reply:  " + a.response);
        }
        a.interpretations.forEach(i -> out.println("   reading: " + i.reading + " → " + i.sql));
        if (a.error != null) {
            out.println("   error:  " + (a.failedStage == null ? "" : a.failedStage + ": ") + a.error);
        }
        if (a.result != null) {
            printRows(a.result);
        }
        out.flush();
    }

    /** "6 rows (5 shown)" when fewer rows are printed than the result has, "6 rows" when all are. */
    static String rowSummary(int rowCount, int shown) {
        String rows = rowCount + " row" + (rowCount == 1 ? "" : "s");
        return shown < rowCount ? rows + " (" + shown + " shown)" : rows;
    }

    private void printRows(ResultPreview r) {
        out.println("   " + String.join(" | ", r.columns));
        List<List<String>> rows = r.rows;
        int shown = Math.min(maxRows, rows.size());
        for (int i = 0; i < shown; i++) {
            out.println("   " + String.join(" | ", rows.get(i).stream().map(v -> v == null ? "NULL" : v).toList()));
        }
        out.println("   " + rowSummary(r.rowCount, shown));
    }
}

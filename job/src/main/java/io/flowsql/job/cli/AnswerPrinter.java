package io.flowsql.job.cli;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.ResultPreview;

import java.io.PrintStream;
import java.util.List;

/** Renders an answer for a terminal: question, status, SQL, and the first rows as a small table. */
final class AnswerPrinter {
    private final PrintStream out;
    private final int maxRows;

    AnswerPrinter(PrintStream out, int maxRows) {
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

    private void printRows(ResultPreview r) {
        out.println("   " + String.join(" | ", r.columns));
        List<List<String>> rows = r.rows;
        for (int i = 0; i < Math.min(maxRows, rows.size()); i++) {
            out.println("   " + String.join(" | ", rows.get(i).stream().map(v -> v == null ? "NULL" : v).toList()));
        }
        out.println("   (" + r.rowCount + " row" + (r.rowCount == 1 ? "" : "s") + ")");
    }
}

package io.flowsql.benchmarks.eval.mmsql;

import io.flowsql.access.DataDoors;
import io.flowsql.sql.ExecutionResult;

import java.nio.file.Path;
import java.util.List;

/** {@code score --semantics mmsql-accs} on an MMSQL output file: reads it, replays the script, writes the reports. */
public final class AccsScore {
    private AccsScore() {}

    /** The replay's figures; the file is refused (IllegalArgumentException naming why) when it is not MMSQL's layout. */
    public static AccsFigures figures(Path predictions, Path databaseRoot, DataDoors doors, int parallel) {
        AccsOutputFile file = AccsOutputFile.read(predictions);
        return new AccsReplay(runner(doors), databaseRoot, parallel).replay(file);
    }

    /** Statements through the project's read-only executor; a failure (error, refusal, budget, no database) is None. */
    public static AccsExecMatch.Runner runner(DataDoors doors) {
        return (db, sql) -> {
            ExecutionResult r = doors.operator(db).execute(sql);
            return r.ok() ? new AccsExecMatch.Rows(r.rows(), null) : new AccsExecMatch.Rows(null, String.valueOf(r.error()));
        };
    }

    /** Scores, prints the script's tables and the headline (with the dialogue history {@code protocol}), writes report.json and report.md; returns the figures. */
    public static AccsFigures run(String benchmark, Path predictions, Path databaseRoot, DataDoors doors,
                                  int parallel, Path out, String protocol) {
        AccsFigures f;
        try (doors) {
            f = figures(predictions, databaseRoot, doors, parallel);
        }
        List<Path> files = AccsReport.write(f, benchmark, predictions.toString(), protocol, out);
        AccsReport.console(f, benchmark, protocol, files).forEach(System.out::println);
        if (f.allQa() == 0) {
            System.err.println("error: no user turn of " + predictions + " was scored");
        }
        return f;
    }
}

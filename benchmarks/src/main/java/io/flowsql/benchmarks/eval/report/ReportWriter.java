package io.flowsql.benchmarks.eval.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Writes the three reports of one summary side by side: report.md, report.html and report.json. */
public final class ReportWriter {

    /** @return the files written */
    public List<Path> write(EvaluationSummary summary, Path folder) {
        try {
            Files.createDirectories(folder);
            Path md = Files.writeString(folder.resolve("report.md"), new MarkdownReport().render(summary));
            Path html = Files.writeString(folder.resolve("report.html"), new HtmlReport().render(summary));
            Path json = Files.writeString(folder.resolve("report.json"), new JsonReport().render(summary));
            return List.of(md, html, json);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write reports to " + folder, e);
        }
    }
}

package io.flowsql.job;

import java.io.StringWriter;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;

/**
 * Every log line of the project's loggers ({@code io.flowsql}, at INFO) and of everything else at the configured level,
 * captured in memory while a test runs, so the test can check what the job wrote to its logs.
 */
final class CapturedLogs {
    private static final String NAME = "flowsql-captured";
    private final StringWriter out;
    private final Level before;

    private CapturedLogs(StringWriter out, Level before) {
        this.out = out;
        this.before = before;
    }

    static CapturedLogs start() {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        Configuration config = context.getConfiguration();
        StringWriter out = new StringWriter();
        WriterAppender appender = WriterAppender.newBuilder().setName(NAME).setTarget(out)
                .setLayout(PatternLayout.newBuilder().withPattern("%p %c{1} - %m%n%throwable").build()).build();
        appender.start();
        config.addAppender(appender);
        config.getRootLogger().addAppender(appender, null, null);
        LoggerConfig project = config.getLoggerConfig("io.flowsql");
        Level before = null;
        if (!project.getName().equals("io.flowsql")) {
            LoggerConfig own = new LoggerConfig("io.flowsql", Level.INFO, true);
            config.addLogger("io.flowsql", own);
        } else {
            before = project.getLevel();
            project.setLevel(Level.INFO);
        }
        context.updateLoggers();
        return new CapturedLogs(out, before);
    }

    /** Stops capturing and returns what was logged. */
    String stop() {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        Configuration config = context.getConfiguration();
        config.getRootLogger().removeAppender(NAME);
        if (before == null) {
            config.removeLogger("io.flowsql");
        } else {
            config.getLoggerConfig("io.flowsql").setLevel(before);
        }
        context.updateLoggers();
        synchronized (out) {
            return out.toString();
        }
    }
}

package io.flowsql.devstack;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every log line of the project's loggers ({@code io.flowsql}, at INFO), of the loggers named at start (at INFO), and
 * of everything else at the configured level, captured in memory while a test runs, so the test can check what was
 * written to the logs (a secret, for one).
 */
public final class CapturedLogs {
    private static final String NAME = "flowsql-captured";
    private final StringWriter out;
    /** Loggers set to INFO for the capture: name → their level before (null: the logger was added for the capture). */
    private final Map<String, Level> before;

    private CapturedLogs(StringWriter out, Map<String, Level> before) {
        this.out = out;
        this.before = before;
    }

    /** Captures io.flowsql and the loggers named in {@code alsoAtInfo} (e.g. {@code org.apache.kafka}) at INFO. */
    public static CapturedLogs start(String... alsoAtInfo) {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        Configuration config = context.getConfiguration();
        StringWriter out = new StringWriter();
        WriterAppender appender = WriterAppender.newBuilder().setName(NAME).setTarget(out)
                .setLayout(PatternLayout.newBuilder().withPattern("%p %c{1} - %m%n%throwable").build()).build();
        appender.start();
        config.addAppender(appender);
        config.getRootLogger().addAppender(appender, null, null);
        List<String> names = new ArrayList<>(List.of("io.flowsql"));
        names.addAll(List.of(alsoAtInfo));
        Map<String, Level> before = new LinkedHashMap<>();
        for (String name : names) {
            LoggerConfig logger = config.getLoggerConfig(name);
            if (logger.getName().equals(name)) {
                before.put(name, logger.getLevel());
                logger.setLevel(Level.INFO);
            } else {
                before.put(name, null);
                config.addLogger(name, new LoggerConfig(name, Level.INFO, true));
            }
        }
        context.updateLoggers();
        return new CapturedLogs(out, before);
    }

    /** Stops capturing and returns what was logged. */
    public String stop() {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        Configuration config = context.getConfiguration();
        config.getRootLogger().removeAppender(NAME);
        before.forEach((name, level) -> {
            if (level == null) {
                config.removeLogger(name);
            } else {
                config.getLoggerConfig(name).setLevel(level);
            }
        });
        context.updateLoggers();
        synchronized (out) {
            return out.toString();
        }
    }
}

package io.flowsql.job.sql;

import io.flowsql.job.FlowSqlJob;
import io.flowsql.job.JobConfig;
import io.flowsql.job.JobOptions;
import io.flowsql.job.JobStartRefused;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs FlowSQL as a Flink SQL job: the bundled script ({@link SqlScript#BUNDLED}, or one given with {@code --script}),
 * its placeholders filled in from the same options as the DataStream job, executed statement by statement through a
 * {@link StreamTableEnvironment} — on the cluster it is submitted to, or in-process with {@code --local}.
 * {@code --print} prints the filled-in script instead, for Flink's SQL client.
 */
@Command(name = "flowsql-sql", mixinStandardHelpOptions = true,
        description = "FlowSQL in Flink SQL: answers the questions topic with the TEXT_TO_SQL functions, exactly once.")
public final class FlowSqlScript implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(FlowSqlScript.class);

    @Option(names = {"-c", "--config"}, description = "Properties file with job options (see docs/OPERATIONS.md).")
    Path configFile;

    @Option(names = {"-D", "--set"}, description = "Override one option, key=value; repeatable.")
    Map<String, String> overrides = new LinkedHashMap<>();

    @Option(names = "--script", description = "A Flink SQL script with ${NAME} placeholders (default: the bundled one).")
    Path scriptFile;

    @Option(names = "--local", description = "Run in this JVM on a local MiniCluster instead of submitting to a cluster.")
    boolean local;

    @Option(names = "--print", description = "Print the filled-in script and exit.")
    boolean print;

    public static void main(String[] args) {
        int exitCode = new CommandLine(new FlowSqlScript()).execute(args);
        // Submitted over a cluster's REST API, main() runs inside the JobManager: a refused start fails the submission
        // by throwing, never by exiting the JobManager's JVM.
        if (exitCode != 0) {
            throw new JobStartRefused(exitCode, "flowsql-sql exit code " + exitCode + " (the reason is printed above)", null);
        }
    }

    @Override
    public Integer call() throws Exception {
        JobConfig config = JobConfig.load(configFile, overrides);
        SqlScript script = script(config);
        if (print) {
            System.out.print(script.text());
            return 0;
        }
        StreamExecutionEnvironment env = local
                ? StreamExecutionEnvironment.createLocalEnvironment(new Configuration())
                : StreamExecutionEnvironment.getExecutionEnvironment();
        FlowSqlJob.configure(env, config);
        TableResult insert = run(StreamTableEnvironment.create(env), script);
        if (local && insert != null) {
            insert.await();
        }
        return 0;
    }

    /** The script given, or the bundled one, filled in from the options. */
    SqlScript script(JobConfig config) throws java.io.IOException {
        SqlScript raw = scriptFile == null ? SqlScript.bundled()
                : new SqlScript(Files.readString(scriptFile, StandardCharsets.UTF_8));
        return raw.fill(ScriptValues.of(config));
    }

    /**
     * Executes every statement in order — {@code SET 'key' = 'value'} as the SQL client does, on the table
     * environment's configuration, the rest with {@code executeSql} — and returns the last result (the INSERT's job,
     * running).
     */
    public static TableResult run(StreamTableEnvironment tables, SqlScript script) {
        TableResult last = null;
        for (String statement : script.statements()) {
            Matcher set = SET.matcher(statement);
            if (set.matches()) {
                tables.getConfig().getConfiguration().setString(set.group(1), set.group(2).replace("''", "'"));
                continue;
            }
            LOG.info("executing: {}", statement.lines().findFirst().orElse(""));
            last = tables.executeSql(statement);
        }
        return last;
    }

    /** {@code SET 'key' = 'value'}, as the SQL client takes it (a quote inside the value doubled). */
    private static final Pattern SET = Pattern.compile("(?is)SET\\s+'([^']+)'\\s*=\\s*'((?:[^']|'')*)'");

    /** The bundled script filled in from these options (for tests and the benchmark). */
    public static SqlScript bundledFor(JobConfig config) {
        return SqlScript.bundled().fill(ScriptValues.of(config));
    }
}

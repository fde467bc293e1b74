package io.flowsql.job;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.DeadLetterEvent;
import io.flowsql.job.kafka.KnownDatabases;
import io.flowsql.job.kafka.ParseAndValidate;
import io.flowsql.job.kafka.RawRecord;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The job's entry point: reads the configuration, wires Kafka in and out around the answering topology,
 * and runs on the cluster it is submitted to, or in-process with {@code --local}.
 */
@Command(name = "flowsql-job", mixinStandardHelpOptions = true,
        description = "FlowSQL: answers questions from Kafka with SQL, exactly once.")
public final class FlowSqlJob implements Callable<Integer> {
    public static final String QUESTIONS_SOURCE_UID = "questions-source";
    public static final String FEEDBACK_SOURCE_UID = "answers-feedback-source";
    public static final String PARSE_UID = "parse-and-validate";
    public static final String ANSWERS_SINK_UID = "answers-sink";
    public static final String DEAD_LETTERS_SINK_UID = "dead-letters-sink";

    @Option(names = {"-c", "--config"}, description = "Properties file with job options (see docs/OPERATIONS.md).")
    Path configFile;

    @Option(names = {"-D", "--set"}, description = "Override one option, key=value; repeatable.")
    Map<String, String> overrides = new LinkedHashMap<>();

    @Option(names = "--local", description = "Run in this JVM on a local MiniCluster instead of submitting to a cluster.")
    boolean local;

    @Option(names = "--print-options", description = "Print every option as a Markdown table and exit.")
    boolean printOptions;

    public static void main(String[] args) {
        int exitCode = new CommandLine(new FlowSqlJob()).execute(args);
        // Submitted over a cluster's REST API, main() runs inside the JobManager: exiting there would stop it.
        if (exitCode != 0) {
            System.exit(exitCode);
        }
    }

    @Override
    public Integer call() throws Exception {
        if (printOptions) {
            System.out.print(JobOptions.markdownTable());
            return 0;
        }
        JobConfig config = JobConfig.load(configFile, overrides);
        StreamExecutionEnvironment env = local
                ? StreamExecutionEnvironment.createLocalEnvironment(new Configuration())
                : StreamExecutionEnvironment.getExecutionEnvironment();
        configure(env, config);
        build(env, JobSources.kafka(config), JobSinks.kafka(config), config);
        env.execute(config.get(JobOptions.JOB_NAME));
        return 0;
    }

    /** Checkpointing (exactly-once answers are committed at checkpoints), parallelism and checkpoint storage. */
    public static void configure(StreamExecutionEnvironment env, JobConfig config) {
        env.enableCheckpointing(config.get(JobOptions.CHECKPOINT_INTERVAL).toMillis());
        int parallelism = config.get(JobOptions.PARALLELISM);
        if (parallelism > 0) {
            env.setParallelism(parallelism);
        }
        String dir = config.get(JobOptions.CHECKPOINT_DIR);
        if (!dir.isBlank()) {
            Configuration conf = new Configuration();
            conf.setString("execution.checkpointing.dir", dir);
            env.configure(conf);
        }
    }

    /** The production job: the topology answers. */
    public static void build(StreamExecutionEnvironment env, JobSources sources, JobSinks sinks, JobConfig config) {
        build(env, sources, sinks, config, TopologyAnswering.from(config));
    }

    /** Wires sources → parse and validate (bad records → dead letters) → answering → sinks. */
    public static void build(StreamExecutionEnvironment env, JobSources sources, JobSinks sinks, JobConfig config,
                             Answering answering) {
        int sourceParallelism = config.get(JobOptions.SOURCE_PARALLELISM);
        SingleOutputStreamOperator<RawRecord> raw = env
                .fromSource(sources.questions(), WatermarkStrategy.noWatermarks(), "questions")
                .uid(QUESTIONS_SOURCE_UID);
        SingleOutputStreamOperator<RequestContext> questions = raw
                .process(new ParseAndValidate(KnownDatabases.of(JobDatabases.locator(config)),
                        config.get(JobOptions.MAX_RECORD_BYTES), config.get(JobOptions.DEAD_LETTER_EXCERPT_BYTES)))
                .uid(PARSE_UID).name("parse and validate");
        if (sourceParallelism > 0) {
            raw.setParallelism(sourceParallelism);
            questions.setParallelism(sourceParallelism);
        }
        DataStream<DeadLetterEvent> deadLetters = questions.getSideOutput(ParseAndValidate.DEAD_LETTERS);
        deadLetters.sinkTo(sinks.deadLetters()).uid(DEAD_LETTERS_SINK_UID).name("dead letters");

        DataStream<AnswerEvent> feedback = env
                .fromSource(sources.answersFeedback(), WatermarkStrategy.noWatermarks(), "answers feedback")
                .uid(FEEDBACK_SOURCE_UID);
        answering.attach(questions, feedback).sinkTo(sinks.answers()).uid(ANSWERS_SINK_UID).name("answers");
    }
}

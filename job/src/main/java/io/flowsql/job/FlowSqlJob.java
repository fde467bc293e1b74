package io.flowsql.job;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.DeadLetterEvent;
import io.flowsql.job.journal.JournalReleaseSink;
import io.flowsql.flink.AnswerFunction;
import io.flowsql.flink.DialogueContextFunction;
import io.flowsql.flink.DialogueKeys;
import io.flowsql.flink.FeedbackTurn;
import io.flowsql.flink.FeedbackTurns;
import io.flowsql.flink.RequestIdFunction;
import io.flowsql.job.kafka.ParseAndValidate;
import io.flowsql.job.kafka.RawRecord;
import io.flowsql.job.topology.PresetChains;
import io.flowsql.job.topology.TopologyConfig;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StateKeyType;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.state.rocksdb.RocksDBOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.environment.LocalStreamEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;

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
    public static final String JOURNAL_RELEASE_SOURCE_UID = "committed-answers-source";
    public static final String JOURNAL_RELEASE_UID = "journal-release";
    public static final String REQUEST_IDS_UID = "request-ids";
    public static final String FEEDBACK_UID = "feedback-turns";
    public static final String DIALOGUE_UID = "dialogue-context";
    public static final String ANSWER_UID = "answer";
    public static final String IDLE_SIGNAL_UID = "idle-signal";
    public static final String IDLE_SIGNAL_SINK_UID = "idle-signal-sink";
    /** Repeats of one request id held while the first is in flight; more are dead-lettered at once. */
    static final int MAX_WAITING_REPEATS = 16;
    private static final Logger LOG = LoggerFactory.getLogger(FlowSqlJob.class);

    @Option(names = {"-c", "--config"}, description = "Properties file with job options (see docs/OPERATIONS.md).")
    Path configFile;

    @Option(names = {"-D", "--set"}, description = "Override one option, key=value; repeatable.")
    Map<String, String> overrides = new LinkedHashMap<>();

    @Option(names = "--local", description = "Run in this JVM on a local MiniCluster instead of submitting to a cluster.")
    boolean local;

    @Option(names = "--print-options", description = "Print every option as a Markdown table and exit.")
    boolean printOptions;

    /**
     * Runs the job, or throws {@link JobStartRefused} naming why it refused: submitted over a cluster's REST API,
     * main() runs inside the JobManager, where {@code System.exit} would stop the JobManager and every job on it.
     */
    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new FlowSqlJob());
        Throwable[] refusal = new Throwable[1];
        CommandLine.IParameterExceptionHandler badArguments = cli.getParameterExceptionHandler();
        cli.setParameterExceptionHandler((error, arguments) -> {
            refusal[0] = error;
            return badArguments.handleParseException(error, arguments);
        });
        cli.setExecutionExceptionHandler((error, command, parsed) -> {
            refusal[0] = error;
            command.getErr().println("flowsql-job: " + error.getMessage());
            return command.getCommandSpec().exitCodeOnExecutionException();
        });
        int exitCode = cli.execute(args);
        if (exitCode != 0) {
            Throwable cause = refusal[0];
            throw new JobStartRefused(exitCode, cause == null ? "exit code " + exitCode
                    : cause.getClass().getSimpleName() + ": " + cause.getMessage(), cause);
        }
    }

    @Override
    public Integer call() throws Exception {
        if (printOptions) {
            System.out.print(OptionsTable.markdown());
            return 0;
        }
        JobConfig config = JobConfig.load(configFile, overrides);
        LOG.info("Job options set (the rest at their defaults, --print-options): {}", config.explicitValues());
        StreamExecutionEnvironment env = local
                ? StreamExecutionEnvironment.createLocalEnvironment(new Configuration())
                : StreamExecutionEnvironment.getExecutionEnvironment();
        configure(env, config);
        BrokerTransactionCheck.verify(config.kafkaClients(),
                config.get(JobOptions.TRANSACTION_TIMEOUT), java.time.Duration.ofSeconds(15));
        build(env, JobSources.kafka(config), JobSinks.kafka(config), config);
        env.execute(config.get(JobOptions.JOB_NAME));
        return 0;
    }

    /**
     * Checkpointing (exactly-once answers are committed at checkpoints), parallelism, max parallelism (the number of
     * key groups: fixed for the life of the state), generic types off (every record and state type has a Flink
     * serializer, no Kryo fallback that could not evolve), no periodic watermarks (the job uses no event time) and
     * checkpoint storage; warns when the checkpoints would
     * live only in the JobManager's memory.
     */
    public static void configure(StreamExecutionEnvironment env, JobConfig config) {
        env.enableCheckpointing(config.get(JobOptions.CHECKPOINT_INTERVAL).toMillis());
        Configuration conf = new Configuration();
        conf.set(CheckpointingOptions.ENABLE_UNALIGNED, config.get(JobOptions.UNALIGNED_CHECKPOINTS));
        conf.set(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS, config.get(JobOptions.CHECKPOINT_MIN_PAUSE));
        if (IdlePacing.enabled(config)) {
            conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL_DURING_BACKLOG, config.get(JobOptions.CHECKPOINT_INTERVAL_IDLE));
        }
        int parallelism = config.get(JobOptions.PARALLELISM);
        if (parallelism > 0) {
            env.setParallelism(parallelism);
        }
        env.setMaxParallelism(config.get(JobOptions.MAX_PARALLELISM));
        env.setBufferTimeout(config.get(JobOptions.BUFFER_TIMEOUT).toMillis());
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        // no event time anywhere: without this every source subtask wakes 5 times a second to emit a watermark
        conf.set(PipelineOptions.AUTO_WATERMARK_INTERVAL, Duration.ZERO);
        stateBackend(conf, config.get(JobOptions.STATE_BACKEND));
        String dir = config.get(JobOptions.CHECKPOINT_DIR);
        if (!dir.isBlank()) {
            conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, dir);
        }
        StateChangelog.configure(conf, config, env.getConfiguration(), env instanceof LocalStreamEnvironment);
        env.configure(conf);
        CheckpointStorageCheck.warning(env.getConfiguration()).ifPresent(LOG::warn);
        CheckpointStorageCheck.heapStateWarning(env.getConfiguration()).ifPresent(LOG::warn);
    }

    /**
     * RocksDB with incremental checkpoints, timers on the heap (they are few: one per turn in flight and per gather in
     * flight, and heap timers cost no serialization per record), the heap backend, or the cluster's own choice.
     */
    static void stateBackend(Configuration conf, StateBackendChoice choice) {
        switch (choice) {
            case CLUSTER -> { }
            case ROCKSDB -> {
                conf.set(StateBackendOptions.STATE_BACKEND, "rocksdb");
                conf.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true);
                conf.set(RocksDBOptions.TIMER_SERVICE_FACTORY, EmbeddedRocksDBStateBackend.PriorityQueueStateType.HEAP);
            }
            case HASHMAP -> conf.set(StateBackendOptions.STATE_BACKEND, "hashmap");
        }
    }

    /** The production job. */
    public static void build(StreamExecutionEnvironment env, JobSources sources, JobSinks sinks, JobConfig config) {
        build(env, sources, sinks, config, EngineWiring.topologyConfig(config), UnaryOperator.identity());
    }

    /**
     * The job graph, top to bottom as the data flows: questions are parsed and validated (bad records → dead letters),
     * repeats of a request id are held or dead-lettered, the dialogue operator adds each question's history (and
     * releases a follow-up once the previous answer is read back from the answers topic), the live library attaches the
     * question's database's examples learned from the feedback topic ({@link LiveLearning}), each question is routed to
     * its preset's chain of stages, and the answer is written exactly once. {@code beforeAnswersSink} is the tests'
     * seam between the answer operator and its sink (the job passes the identity).
     */
    public static void build(StreamExecutionEnvironment env, JobSources sources, JobSinks sinks, JobConfig config,
                             TopologyConfig topology, UnaryOperator<DataStream<AnswerEvent>> beforeAnswersSink) {
        SingleOutputStreamOperator<RawRecord> records = env
                .fromSource(sources.questions(), WatermarkStrategy.noWatermarks(), "questions")
                .uid(QUESTIONS_SOURCE_UID);
        SingleOutputStreamOperator<RequestContext> questions = records
                .process(new ParseAndValidate(JobDatabases.locator(config),
                        config.get(JobOptions.MAX_RECORD_BYTES), config.get(JobOptions.DEAD_LETTER_EXCERPT_BYTES))
                        .withDeclaredDatabases(JobDatabases.declaredIds(config))
                        .withAccess(EngineWiring.access(config)))
                .uid(PARSE_UID).name("parse and validate");
        int sourceParallelism = config.get(JobOptions.SOURCE_PARALLELISM);
        if (sourceParallelism > 0) {
            records.setParallelism(sourceParallelism);
            questions.setParallelism(sourceParallelism);
        }
        DataStream<AnswerEvent> answersReadBack = env
                .fromSource(sources.answersFeedback(), WatermarkStrategy.noWatermarks(), "answers feedback")
                .uid(FEEDBACK_SOURCE_UID);

        SingleOutputStreamOperator<RequestContext> firstOfEachId = parallel(questions
                .keyBy(RequestIdFunction.questionKey(), StateKeyType.STRING)
                .connect(answersReadBack.keyBy(RequestIdFunction.answerKey(), StateKeyType.STRING))
                // not seeded from answers of earlier runs as they are read back (RequestIdFunction's answersCommitted):
                // RecoveryITCase lost answers with it; a stateless start reads the last answers once, before any question
                .process(new RequestIdFunction(config.get(JobOptions.REQUEST_ID_TTL), MAX_WAITING_REPEATS)
                        .withEarlierAnswers(sources.earlierAnswers()))
                .uid(REQUEST_IDS_UID).name("request-id check"), topology);

        SingleOutputStreamOperator<FeedbackTurn> finishedTurns = answersReadBack
                .map(new FeedbackTurns()).uid(FEEDBACK_UID).name("feedback turns");
        SingleOutputStreamOperator<RequestContext> withHistory = parallel(firstOfEachId
                .keyBy(new DialogueKeys.OfQuestion(), StateKeyType.STRING)
                .connect(finishedTurns.keyBy(new DialogueKeys.OfFeedback(), StateKeyType.STRING))
                .process(new DialogueContextFunction(topology.historyTtl, topology.feedbackWait.toMillis(),
                        topology.historyLimits, topology.maxWaitingTurns))
                .uid(DIALOGUE_UID).name("dialogue context"), topology);

        LiveLearning.Wired learning = LiveKnowledge.attach(env,
                LiveLearning.attach(env, sources.feedback(), answersReadBack, withHistory, config, topology), config, topology);
        DataStream<RequestContext> answered = PresetChains.attach(learning.questions(), topology);

        SingleOutputStreamOperator<AnswerEvent> answers = parallel(answered
                .map(new AnswerFunction()).uid(ANSWER_UID).name("answer"), topology);
        beforeAnswersSink.apply(answers).sinkTo(sinks.answers()).uid(ANSWERS_SINK_UID).name("answers");
        DataStream<DeadLetterEvent> deadLetters = questions.getSideOutput(ParseAndValidate.DEAD_LETTERS)
                .union(firstOfEachId.getSideOutput(RequestIdFunction.DUPLICATES))
                .union(withHistory.getSideOutput(DialogueContextFunction.QUEUE_FULL));
        if (learning.deadLetters() != null) {
            deadLetters = deadLetters.union(learning.deadLetters());
        }
        deadLetters.sinkTo(sinks.deadLetters()).uid(DEAD_LETTERS_SINK_UID).name("dead letters");

        if (sources.idleSignal() != null) {
            env.fromSource(sources.idleSignal(), WatermarkStrategy.noWatermarks(), "idle signal")
                    .uid(IDLE_SIGNAL_UID).setParallelism(1)
                    .sinkTo(new DiscardingSink<>()).uid(IDLE_SIGNAL_SINK_UID).name("idle signal (no records)").setParallelism(1);
        }
        if (EngineWiring.releasesJournalOnCommit(config)) {
            env.fromSource(KafkaSources.committedAnswers(config), WatermarkStrategy.noWatermarks(), "committed answers")
                    .uid(JOURNAL_RELEASE_SOURCE_UID)
                    .sinkTo(new JournalReleaseSink(topology.engine))
                    .uid(JOURNAL_RELEASE_UID).name("release journal of committed answers");
        }
    }

    private static <T> SingleOutputStreamOperator<T> parallel(SingleOutputStreamOperator<T> op, TopologyConfig topology) {
        return topology.parallelism > 0 ? op.setParallelism(topology.parallelism) : op;
    }
}

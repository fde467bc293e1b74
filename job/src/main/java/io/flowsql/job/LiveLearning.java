package io.flowsql.job;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.FeedbackEvent;
import io.flowsql.feedback.LiveEntry;
import io.flowsql.feedback.LiveLibraryLimits;
import io.flowsql.flink.FeedbackCheckFunction;
import io.flowsql.flink.FeedbackOutcome;
import io.flowsql.flink.LiveLibraryFunction;
import io.flowsql.flink.VerdictJoinFunction;
import io.flowsql.job.kafka.ParseFeedback;
import io.flowsql.job.kafka.RawRecord;
import io.flowsql.job.topology.TopologyConfig;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StateKeyType;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.util.concurrent.TimeUnit;

/**
 * The job's learning loop, wired between the dialogue operator and the stages: feedback records are parsed
 * ({@code parse-feedback}), verdicts resolved against the answers read back ({@code feedback-verdicts}), SQL checked on
 * a pool thread ({@code feedback-check}), refusals dead-lettered and the rest turned into live-library entries
 * ({@code feedback-outcome}), which are broadcast to every instance of {@code live-library}; that operator attaches
 * each question's live examples and repairs. The feedback path runs at parallelism 1 (feedback is rare), so every
 * instance of {@code live-library} receives the same entries in the same order.
 */
final class LiveLearning {
    static final String SOURCE_UID = "feedback-source";
    static final String PARSE_UID = "parse-feedback";
    static final String VERDICTS_UID = "feedback-verdicts";
    static final String CHECK_UID = "feedback-check";
    static final String OUTCOME_UID = "feedback-outcome";
    static final String LIVE_LIBRARY_UID = "live-library";
    private static final int CHECKS_IN_FLIGHT = 16;

    private LiveLearning() {}

    /** The questions with their live feedback attached, and the feedback's dead letters (null when nothing is learned). */
    record Wired(DataStream<RequestContext> questions, DataStream<DeadLetterEvent> deadLetters) {}

    static Wired attach(StreamExecutionEnvironment env, Source<RawRecord, ?, ?> feedbackSource,
                        DataStream<AnswerEvent> answersReadBack, DataStream<RequestContext> questions,
                        JobConfig config, TopologyConfig topology) {
        if (feedbackSource == null) {
            return new Wired(questions, null);
        }
        SingleOutputStreamOperator<FeedbackEvent> parsed = env
                .fromSource(feedbackSource, WatermarkStrategy.noWatermarks(), "feedback").uid(SOURCE_UID).setParallelism(1)
                .process(new ParseFeedback(JobDatabases.locator(config), config.get(JobOptions.MAX_RECORD_BYTES),
                        config.get(JobOptions.DEAD_LETTER_EXCERPT_BYTES)))
                .uid(PARSE_UID).name("parse feedback").setParallelism(1);
        SingleOutputStreamOperator<FeedbackEvent> resolved = parsed
                .keyBy(VerdictJoinFunction.feedbackKey(), StateKeyType.STRING)
                .connect(answersReadBack.keyBy(VerdictJoinFunction.answerKey(), StateKeyType.STRING))
                .process(new VerdictJoinFunction(config.get(JobOptions.FEEDBACK_VERDICT_WINDOW)))
                .uid(VERDICTS_UID).name("feedback verdicts");
        if (topology.parallelism > 0) {
            resolved.setParallelism(topology.parallelism);
        }
        SingleOutputStreamOperator<FeedbackEvent> checked = AsyncDataStream.orderedWait(resolved,
                        new FeedbackCheckFunction(topology.engine), EngineWiring.feedbackCheckTimeout(config).toMillis(),
                        TimeUnit.MILLISECONDS, CHECKS_IN_FLIGHT)
                .uid(CHECK_UID).name("feedback check").setParallelism(1);
        SingleOutputStreamOperator<LiveEntry> entries = checked
                .process(new FeedbackOutcome(config.get(JobOptions.DEAD_LETTER_EXCERPT_BYTES)))
                .uid(OUTCOME_UID).name("feedback outcome").setParallelism(1);
        SingleOutputStreamOperator<RequestContext> withLive = questions
                .connect(entries.broadcast(LiveLibraryFunction.STATE))
                .process(new LiveLibraryFunction(limits(config), topology.engine))
                .uid(LIVE_LIBRARY_UID).name("live library");
        if (topology.parallelism > 0) {
            withLive.setParallelism(topology.parallelism);
        }
        return new Wired(withLive, parsed.getSideOutput(ParseFeedback.DEAD_LETTERS)
                .union(entries.getSideOutput(FeedbackOutcome.DEAD_LETTERS)));
    }

    static LiveLibraryLimits limits(JobConfig config) {
        return new LiveLibraryLimits(config.get(JobOptions.FEEDBACK_MAX_PER_DATABASE), config.get(JobOptions.FEEDBACK_MAX_BYTES),
                config.get(JobOptions.FEEDBACK_MAX_AGE), config.get(JobOptions.FEEDBACK_EXAMPLES_PER_REQUEST),
                LiveLibraryLimits.defaults().repairsPerRequest());
    }
}

package io.flowsql.job;

import io.flowsql.events.AnswerEvent;
import io.flowsql.flink.EarlierAnswers;
import io.flowsql.job.kafka.RawRecord;
import io.flowsql.job.kafka.RecentAnswers;
import io.flowsql.job.pacing.IdleSignalSource;
import org.apache.flink.api.connector.source.Source;

/**
 * The job's inputs, passed in so tests can use their own sources; {@link #kafka} gives the production ones.
 * {@code feedback} is null when the job learns nothing (kafka.topic.feedback blank); {@code idleSignal} (no records:
 * it lengthens the checkpoint interval while the job's topics are still, {@link IdleSignalSource}) is null when
 * job.checkpoint-interval-idle is off. {@code earlierAnswers} (null: none) are the answers a job started without state
 * reads once, for its request-id check ({@link RecentAnswers}: the last requests.recheck-answers of each partition).
 */
public record JobSources(Source<RawRecord, ?, ?> questions, Source<AnswerEvent, ?, ?> answersFeedback,
                         Source<RawRecord, ?, ?> feedback, Source<Void, ?, ?> idleSignal, EarlierAnswers earlierAnswers) {

    public JobSources(Source<RawRecord, ?, ?> questions, Source<AnswerEvent, ?, ?> answersFeedback) {
        this(questions, answersFeedback, null, null, null);
    }

    /** Longest a request-id subtask reads earlier answers at a start without state. */
    public static final java.time.Duration RECENT_ANSWERS_WITHIN = java.time.Duration.ofSeconds(30);

    public static JobSources kafka(JobConfig config) {
        return new JobSources(KafkaSources.questions(config), KafkaSources.answersFeedback(config),
                config.get(JobOptions.FEEDBACK_TOPIC).isBlank() ? null : KafkaSources.feedback(config),
                IdlePacing.enabled(config) ? IdlePacing.signal(config) : null,
                new RecentAnswers(config.kafkaClients(), config.get(JobOptions.ANSWERS_TOPIC),
                        config.get(JobOptions.REQUEST_RECHECK_ANSWERS), RECENT_ANSWERS_WITHIN));
    }
}

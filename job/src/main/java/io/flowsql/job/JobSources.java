package io.flowsql.job;

import io.flowsql.events.AnswerEvent;
import io.flowsql.job.kafka.RawRecord;
import io.flowsql.job.pacing.IdleSignalSource;
import org.apache.flink.api.connector.source.Source;

/**
 * The job's inputs, passed in so tests can use their own sources; {@link #kafka} gives the production ones.
 * {@code feedback} is null when the job learns nothing (kafka.topic.feedback blank); {@code idleSignal} (no records:
 * it lengthens the checkpoint interval while the job's topics are still, {@link IdleSignalSource}) is null when
 * job.checkpoint-interval-idle is off.
 */
public record JobSources(Source<RawRecord, ?, ?> questions, Source<AnswerEvent, ?, ?> answersFeedback,
                         Source<RawRecord, ?, ?> feedback, Source<Void, ?, ?> idleSignal) {

    public JobSources(Source<RawRecord, ?, ?> questions, Source<AnswerEvent, ?, ?> answersFeedback) {
        this(questions, answersFeedback, null, null);
    }

    public static JobSources kafka(JobConfig config) {
        return new JobSources(KafkaSources.questions(config), KafkaSources.answersFeedback(config),
                config.get(JobOptions.FEEDBACK_TOPIC).isBlank() ? null : KafkaSources.feedback(config),
                IdlePacing.enabled(config) ? IdlePacing.signal(config) : null);
    }
}

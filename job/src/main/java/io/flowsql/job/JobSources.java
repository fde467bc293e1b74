package io.flowsql.job;

import io.flowsql.events.AnswerEvent;
import io.flowsql.job.kafka.RawRecord;
import org.apache.flink.api.connector.source.Source;

/**
 * The job's inputs, passed in so tests can use their own sources; {@link #kafka} gives the production ones.
 * {@code feedback} is null when the job learns nothing (kafka.topic.feedback blank).
 */
public record JobSources(Source<RawRecord, ?, ?> questions, Source<AnswerEvent, ?, ?> answersFeedback,
                         Source<RawRecord, ?, ?> feedback) {

    public JobSources(Source<RawRecord, ?, ?> questions, Source<AnswerEvent, ?, ?> answersFeedback) {
        this(questions, answersFeedback, null);
    }

    public static JobSources kafka(JobConfig config) {
        return new JobSources(KafkaSources.questions(config), KafkaSources.answersFeedback(config),
                config.get(JobOptions.FEEDBACK_TOPIC).isBlank() ? null : KafkaSources.feedback(config));
    }
}
